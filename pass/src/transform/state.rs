//! The state a transformed kernel keeps per data structure (stack slots in
//! its entry block, promoted back to registers by the clean-up), and the
//! small IR helpers they and the transform's other stages build with.

use crate::analysis::Mode;
use crate::llvm::ir::{Function, Value};
use crate::llvm::typed::TypedBuilder;
use crate::runtime::ADDRSPACE_SHARED;

/// Per data structure state slots (allocas in the entry block).
#[derive(Clone, Copy)]
pub(super) struct State<'m> {
    /// The data structure's id (its row in the statistics global).
    pub(super) id: u32,
    /// The argument is restrict: its line is private to it.
    pub(super) restrict: bool,
    pub(super) tag: Value<'m>,
    pub(super) dirty: Value<'m>,
    pub(super) cached: Value<'m>,
    pub(super) line: Value<'m>,
    pub(super) sim_tag: Value<'m>,
    pub(super) sim_hits: Value<'m>,
    pub(super) sim_accesses: Value<'m>,
    /// Hits and misses of slice 2 not yet added to the statistics global.
    pub(super) counts: Option<(Value<'m>, Value<'m>)>,
}

/// A predicted hit rate, standing in for the monitoring slice's counts.
#[derive(Clone, Copy, Debug)]
pub(super) struct StaticRate {
    pub(super) hit_percent: u32,
    /// Accesses of the structure per iteration.
    pub(super) sites: u32,
    /// Bytes its addresses move per iteration of their loop.
    pub(super) stride: i64,
    /// Its accesses sit in the main loop itself, not in an inner loop: the
    /// stride is per iteration of the main loop.
    pub(super) in_main_loop: bool,
}

/// A read-only restrict structure, by default cached only by threads that
/// also cache a structure the loop writes (see `decide`). Without restrict
/// it stays a full member: it may alias a cached structure.
pub(super) fn read_only_companion(restrict: bool, mode: Mode, cache_read_only: bool) -> bool {
    !cache_read_only && restrict && mode == Mode::ReadOnly
}

/// Stores `value` into `slot` at the end of `function`'s entry block,
/// where the slots get their first values.
pub(super) fn store_before_entry_end<'m>(
    function: Function<'m>,
    slot: Value<'m>,
    value: Value<'m>,
) {
    let end = function
        .entry_block()
        .terminator()
        .expect("the entry block ends");
    TypedBuilder::before(end).store(value, slot);
}

/// The state slots of structure `ds`, with the statistics build's counts
/// where `stats`, and a dirty mask for lines of up to `largest_line` bytes.
pub(super) fn new_state<'m>(
    function: Function<'m>,
    buffer: Value<'m>,
    ds: &crate::analysis::DataStructure,
    (stats, largest_line): (bool, u32),
) -> State<'m> {
    let name = ds.name.as_str();
    let i64t = function.int_type(64);
    let i32t = function.int_type(32);
    let i1t = function.int_type(1);
    let sp = function.pointer_type(u32::from(ADDRSPACE_SHARED));
    // The runtime's dirty mask: one bit per byte of the largest line.
    let dirty_t = function.int_type(crate::runtime::dirty_mask_bits(largest_line));
    let slot = |ty, what: &str, init| {
        let s = function.entry_alloca(ty, &format!("sl1.{name}.{what}"));
        store_before_entry_end(function, s, init);
        s
    };
    State {
        id: ds.id,
        restrict: ds.restrict,
        tag: slot(i64t, "tag", i64t.signed(-1)),
        dirty: slot(dirty_t, "dirty", dirty_t.signed(0)),
        cached: slot(i1t, "cached", i1t.signed(0)),
        line: slot(sp, "line", buffer),
        sim_tag: slot(i64t, "sim.tag", i64t.signed(-1)),
        sim_hits: slot(i32t, "sim.hits", i32t.signed(0)),
        sim_accesses: slot(i32t, "sim.accesses", i32t.signed(0)),
        counts: stats.then(|| {
            (
                slot(i64t, "hits", i64t.signed(0)),
                slot(i64t, "misses", i64t.signed(0)),
            )
        }),
    }
}

/// A structure's line slot and its line's index in the buffer (an i64
/// value of the decision block, lines `size + pad` bytes apart) when the
/// decision gives it one. The copies for threads that cache every
/// structure address lines through it at their size's constant pitch
/// rather than through the slot: its select against the buffer's start,
/// and the picked pitch, hid from alias analysis that two lines lie apart,
/// and made each query between them a deep known-bits search.
pub(super) struct CachedLine<'m> {
    pub(super) slot: Value<'m>,
    pub(super) index: Value<'m>,
}

impl<'m> CachedLine<'m> {
    /// The line, for lines of `size` bytes and `pad` bytes of padding in
    /// `buffer`, built at `b` (in or after the decision block).
    pub(super) fn at_size(
        &self,
        b: &TypedBuilder<'m>,
        buffer: Value<'m>,
        size: u32,
        pad: u32,
    ) -> Value<'m> {
        let pitch = self.index.ty().signed(i64::from(size + pad));
        line_address(b, buffer, self.index, pitch, c"sl1.line.cached")
    }
}

/// Line `index` of `buffer` (i8 elements), lines `pitch` bytes apart (i64
/// values), named `name`.
pub(super) fn line_address<'m>(
    b: &TypedBuilder<'m>,
    buffer: Value<'m>,
    index: Value<'m>,
    pitch: Value<'m>,
    name: &std::ffi::CStr,
) -> Value<'m> {
    let offset = b.mul(index, pitch, c"");
    b.gep(b.int_type(8), buffer, &[offset], name)
}
