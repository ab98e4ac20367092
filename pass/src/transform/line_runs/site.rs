//! What a line run knows of each cached access: the site in slice 2, and
//! at the checked latch how long its access stays in its line.

use crate::llvm::ir::{Type, Value};
use crate::runtime::SiteKind;
use crate::transform::state::State;

/// One cached access of slice 2, as a line run needs it.
#[derive(Clone, Copy)]
pub(in crate::transform) struct RunSite<'m> {
    /// The `sl1.load` / `sl1.store` call in slice 2.
    pub(in crate::transform) call: Value<'m>,
    pub(in crate::transform) state: State<'m>,
    /// Bytes its address moves per iteration.
    pub(in crate::transform) stride: i64,
    pub(in crate::transform) kind: SiteKind,
    /// The loaded or stored type.
    pub(in crate::transform) ty: Type<'m>,
    pub(in crate::transform) is_load: bool,
}

/// One site at the checked latch: its structure's tag, how many next
/// iterations its access stays in that line, and whether it is in it now;
/// `d` is the access's offset from the line's address.
#[derive(Clone, Copy)]
pub(super) struct Stay<'m> {
    pub(super) tag: Value<'m>,
    pub(super) d: Value<'m>,
    pub(super) n: Value<'m>,
    pub(super) in_line: Value<'m>,
}
