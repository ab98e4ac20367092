//! The device-side cache runtime, written once as small internal
//! `alwaysinline` functions in the module being transformed. Each site calls
//! them with its data structure's state (stack slots that SROA turns back into
//! registers once the calls are inlined), so the code at a site is specialised
//! to its type, alignment and structure.
//!
//! Per data structure and thread the state is: `tag` (address of the line held,
//! -1 when none), `dirty` (a byte mask of the line), `cached` (decided after
//! monitoring) and `line` (the thread's line in shared memory). Every helper
//! but `simulate` also takes the line size in bytes, a power of two between
//! the runtime's smallest and largest: a constant that folds away when the
//! two are equal, else the size the decision picked for the launch.

mod access;
mod base;
mod calls;
mod lines;
mod monitor;
mod runs;
mod stage;
mod warp_copy;
mod warp_stage;

pub use base::{
    dirty_mask_bits, Runtime, SiteKind, ADDRSPACE_GLOBAL, ADDRSPACE_SHARED, LINE_BUFFER_ALIGN,
};
pub use calls::{AccessOperands, GroupMember, LineOperands, RoutedCall, Simulated, Stage};
