//! The state a transformed kernel keeps per data structure (stack slots in
//! its entry block, promoted back to registers by the clean-up), and the
//! small IR helpers they and the transform's other stages build with.

use crate::llvm::build;
use inkwell::llvm_sys::prelude::*;

use crate::analysis::Mode;
use crate::llvm::edit::{self, Builder};
use crate::runtime::ADDRSPACE_SHARED;

/// Per data structure state slots (allocas in the entry block).
#[derive(Clone, Copy)]
pub(super) struct State {
    /// The data structure's id (its row in the statistics global).
    pub(super) id: u32,
    /// The argument is restrict: its line is private to it.
    pub(super) restrict: bool,
    pub(super) tag: LLVMValueRef,
    pub(super) dirty: LLVMValueRef,
    pub(super) cached: LLVMValueRef,
    pub(super) line: LLVMValueRef,
    pub(super) sim_tag: LLVMValueRef,
    pub(super) sim_hits: LLVMValueRef,
    pub(super) sim_accesses: LLVMValueRef,
    /// Hits and misses of slice 2 not yet added to the statistics global.
    pub(super) counts: Option<(LLVMValueRef, LLVMValueRef)>,
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

pub(super) fn i32_type(function: LLVMValueRef) -> LLVMTypeRef {
    build::i32_type(build::context_of(function))
}

pub(super) fn const_int(ty: LLVMTypeRef, v: i64) -> LLVMValueRef {
    build::const_int(ty, v as u64, true)
}

pub(super) fn store_before_entry_end(
    function: LLVMValueRef,
    slot: LLVMValueRef,
    value: LLVMValueRef,
) {
    let entry = build::entry_block(function);
    Builder::before(edit::terminator(entry)).store(value, slot);
}

/// The state slots of structure `ds`, with the statistics build's counts
/// where `stats`, and a dirty mask for lines of up to `largest_line` bytes.
pub(super) fn new_state(
    function: LLVMValueRef,
    buffer: LLVMValueRef,
    ds: &crate::analysis::DataStructure,
    (stats, largest_line): (bool, u32),
) -> State {
    let name = ds.name.as_str();
    let ctx = build::context_of(function);
    let i64t = build::i64_type(ctx);
    let i32t = build::i32_type(ctx);
    let i1t = build::i1_type(ctx);
    let sp = build::pointer_type(ctx, u32::from(ADDRSPACE_SHARED));
    // The runtime's dirty mask: one bit per byte of the largest line.
    let dirty_t = build::int_type(ctx, crate::runtime::dirty_mask_bits(largest_line));
    let slot = |ty, what: &str, init| {
        let s = edit::entry_alloca(function, ty, &format!("sl1.{name}.{what}"));
        store_before_entry_end(function, s, init);
        s
    };
    State {
        id: ds.id,
        restrict: ds.restrict,
        tag: slot(i64t, "tag", const_int(i64t, -1)),
        dirty: slot(dirty_t, "dirty", const_int(dirty_t, 0)),
        cached: slot(i1t, "cached", const_int(i1t, 0)),
        line: slot(sp, "line", buffer),
        sim_tag: slot(i64t, "sim.tag", const_int(i64t, -1)),
        sim_hits: slot(i32t, "sim.hits", const_int(i32t, 0)),
        sim_accesses: slot(i32t, "sim.accesses", const_int(i32t, 0)),
        counts: stats.then(|| {
            (
                slot(i64t, "hits", const_int(i64t, 0)),
                slot(i64t, "misses", const_int(i64t, 0)),
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
pub(super) struct CachedLine {
    pub(super) slot: LLVMValueRef,
    pub(super) index: LLVMValueRef,
}

impl CachedLine {
    /// The line, for lines of `size` bytes and `pad` bytes of padding in
    /// `buffer`, built at `b` (in or after the decision block).
    pub(super) fn at_size(
        &self,
        b: &Builder,
        buffer: LLVMValueRef,
        size: u32,
        pad: u32,
    ) -> LLVMValueRef {
        let pitch = const_int(build::type_of(self.index), i64::from(size + pad));
        line_address(b, buffer, self.index, pitch, c"sl1.line.cached")
    }
}

/// Line `index` of `buffer` (i8 elements), lines `pitch` bytes apart (i64
/// values), named `name`.
pub(super) fn line_address(
    b: &Builder,
    buffer: LLVMValueRef,
    index: LLVMValueRef,
    pitch: LLVMValueRef,
    name: &std::ffi::CStr,
) -> LLVMValueRef {
    let mut offset = [b.mul(index, pitch, c"")];
    b.gep(
        build::i8_type(build::context_of(buffer)),
        buffer,
        &mut offset,
        name,
    )
}
