//! The runtime's state: the module its helpers go into, the line sizes
//! and options they are built for, and the helpers made so far. Its
//! methods build the helpers (`runtime`, `warp_copy`).

use std::collections::HashMap;

use inkwell::context::ContextRef;
use inkwell::module::Module;
use inkwell::values::{FunctionValue, IntValue, PointerValue};

/// A whole line to move between its place in shared memory and memory.
#[derive(Clone, Copy)]
pub(super) struct LineCopy<'ctx> {
    /// The line in shared memory.
    pub(super) line: PointerValue<'ctx>,
    /// The line's address in memory.
    pub(super) addr: IntValue<'ctx>,
    /// Memory to shared memory (a fill), or back (a write-back).
    pub(super) to_shared: bool,
    /// The line's size, in bytes.
    pub(super) bytes: IntValue<'ctx>,
}

pub struct Runtime<'ctx, 'm> {
    pub(super) module: &'m Module<'ctx>,
    pub(super) ctx: ContextRef<'ctx>,
    /// Smallest line size: what alignments and straddling are judged by,
    /// and what the monitoring slice simulates.
    pub(super) min_line: u32,
    /// Largest line size a launch may pick.
    pub(super) max_line: u32,
    /// Fills also prefetch the memory `PREFETCH_AHEAD` bytes further on.
    pub(super) prefetch: bool,
    /// Bytes of padding after each line in shared memory (0: packed).
    pub(super) pad: u32,
    /// Whole lines of 32 B and more move a warp at a time when every lane
    /// of the warp copies one (`warp_copy`).
    pub(super) warp_copies: bool,
    pub(super) helpers: HashMap<String, FunctionValue<'ctx>>,
}

pub(super) type BuildResult<T> = Result<T, inkwell::builder::BuilderError>;
