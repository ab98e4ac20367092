//! Every call into LLVM's C API (llvm-sys) and into the pass's own C++
//! shims lives here, behind safe functions; the rest of the crate denies
//! `unsafe` code.
//!
//! - `ir`: a read-only view of a module for the analyses.
//! - `edit`: the IR surgery (blocks, edges, phis, uses, clones, calls).
//! - `build`: instructions, constants and types built at a position.
//! - `typed`: building and editing on `ir`'s typed values, for code that
//!   holds no raw handle.
//! - `cfg`: control-flow edits (split edges, copied blocks, peeled and
//!   unswitched loops) on typed blocks.
//! - `intrinsics`: calls to LLVM's (not overloaded) intrinsics.
//! - `metadata`: the scope metadata of line runs.
//! - `backup`: a kernel's body saved before a transform and put back when it fails.
//! - `diagnostics`: clang diagnostics about the module.
//! - `abi`: the C entry points the plugin's C++ half calls.
//! - `miscompiles`: LLVM options that avoid known LLVM miscompiles.
//! - `options`: LLVM options set while a pipeline of the pass's own runs.
//!
//! Handles are raw LLVM references into a module that outlives the pass's
//! run on it; the functions here take live handles of the right kind (a
//! block where a block is asked for), which their callers get from LLVM.

pub(crate) mod abi;
pub(crate) mod backup;
pub(crate) mod build;
pub(crate) mod cfg;
pub(crate) mod diagnostics;
pub(crate) mod edit;
pub(crate) mod intrinsics;
pub mod ir;
pub(crate) mod metadata;
pub mod miscompiles;
pub(crate) mod options;
pub(crate) mod typed;
