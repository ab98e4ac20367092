//! The S-L1 transformation of one kernel (paper section 3.2): every main loop is
//! sliced into a monitoring clone that simulates a one-line cache per data
//! structure and leaves after THRESHOLD accesses, a decision, and the original
//! loop with its accesses routed through the cache; coherence is kept at fences,
//! barriers, calls and atomics, and the cache is flushed on every loop exit.

use std::collections::BTreeSet;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMTypeKind;
use inkwell::module::{Linkage, Module};
use inkwell::types::{AnyTypeEnum, BasicTypeEnum};
use inkwell::values::{AsValueRef, FunctionValue};
use inkwell::AddressSpace;
use serde::{Deserialize, Serialize};

use crate::analysis::accesses::{Access, AccessKind, Base};
use crate::analysis::{analyse_kernel, KernelAnalysis, Mode};
use crate::edit::{self, Builder};
use crate::options::Options;
use crate::runtime::{Runtime, SiteKind, ADDRSPACE_SHARED};

/// Static shared memory a kernel may use without opting in (48 KiB).
pub const STATIC_SHARED_LIMIT: u64 = 48 * 1024;

/// An access the transform leaves as it is, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DirectAccess {
    pub argument: String,
    pub kind: AccessKind,
    pub reason: String,
}

/// What the transformation did to one kernel.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransformReport {
    pub applied: bool,
    /// Why the kernel, or some of its loops, were left untransformed.
    pub reasons: Vec<String>,
    /// Headers of the loops sliced.
    pub loops_sliced: Vec<String>,
    /// Accesses routed through the cache.
    pub accesses_cached: usize,
    pub accesses_direct: Vec<DirectAccess>,
    /// Bytes of the kernel's S-L1 line buffer in shared memory.
    pub shared_bytes: u64,
    /// Static shared memory the kernel used before.
    pub kernel_shared_bytes: u64,
    /// Block size the buffer is provisioned for.
    pub max_threads: u32,
}

/// Per data structure state slots (allocas in the entry block).
#[derive(Clone, Copy)]
struct State {
    /// The argument is restrict: its line is private to it.
    restrict: bool,
    tag: LLVMValueRef,
    dirty: LLVMValueRef,
    cached: LLVMValueRef,
    line: LLVMValueRef,
    sim_tag: LLVMValueRef,
    sim_hits: LLVMValueRef,
    sim_accesses: LLVMValueRef,
}

/// Why an access cannot go through the cache, if it cannot.
fn uncacheable_reason(
    k: &KernelAnalysis<'_>,
    a: &Access<'_>,
    line_size: u32,
) -> Option<&'static str> {
    k.data_structure_of(a)?;
    match a.kind {
        AccessKind::Load | AccessKind::Store => {}
        AccessKind::AtomicRmw | AccessKind::CmpXchg => {
            return Some("atomic: its line is evicted first")
        }
        AccessKind::RangeRead | AccessKind::RangeWrite => {
            return Some("memcpy/memset range: the structure is flushed first")
        }
    }
    if a.volatile {
        return Some("volatile: the structure is flushed first");
    }
    if !a.size.is_power_of_two() || a.size > u64::from(line_size) {
        return Some("wider than a line or of odd size: the structure is flushed first");
    }
    let ty = access_type(a.inst.as_raw(), a.kind);
    // SAFETY: reads a type.
    let kind = unsafe { LLVMGetTypeKind(ty) };
    if matches!(
        kind,
        LLVMTypeKind::LLVMStructTypeKind | LLVMTypeKind::LLVMArrayTypeKind
    ) {
        return Some("aggregate value: the structure is flushed first");
    }
    None
}

/// The type a load produces or a store writes.
fn access_type(inst: LLVMValueRef, kind: AccessKind) -> LLVMTypeRef {
    // SAFETY: `inst` is a load or a store.
    unsafe {
        match kind {
            AccessKind::Store => LLVMTypeOf(LLVMGetOperand(inst, 0)),
            _ => LLVMTypeOf(inst),
        }
    }
}

fn pointer_operand(inst: LLVMValueRef, kind: AccessKind) -> LLVMValueRef {
    // SAFETY: loads take the address as operand 0, stores as operand 1.
    unsafe { LLVMGetOperand(inst, if kind == AccessKind::Store { 1 } else { 0 }) }
}

/// Static shared memory of the module (our own buffers excluded), and whether
/// it declares dynamic shared memory.
fn kernel_shared_memory(module: &Module<'_>) -> (u64, bool) {
    let mut bytes = 0;
    let mut dynamic = false;
    for global in module.get_globals() {
        let name = global.get_name().to_string_lossy().into_owned();
        if name.starts_with("sl1.lines.") {
            continue;
        }
        let ptr = global.as_pointer_value();
        if ptr.get_type().get_address_space() != AddressSpace::from(ADDRSPACE_SHARED) {
            continue;
        }
        let ty = global.get_value_type();
        let size = match ty {
            AnyTypeEnum::ArrayType(a) if a.is_empty() => {
                dynamic = true;
                0
            }
            // SAFETY: the store size of a global's sized type, by the module's layout.
            _ => unsafe {
                inkwell::llvm_sys::target::LLVMStoreSizeOfType(
                    inkwell::llvm_sys::target::LLVMGetModuleDataLayout(module.as_mut_ptr()),
                    LLVMGlobalGetValueType(global.as_value_ref()),
                )
            },
        };
        bytes += size;
    }
    (bytes, dynamic)
}

fn max_threads(kernel: FunctionValue<'_>, options: &Options) -> u32 {
    kernel
        .get_string_attribute(inkwell::attributes::AttributeLoc::Function, "nvvm.maxntid")
        .and_then(|a| {
            a.get_string_value()
                .to_string_lossy()
                .split(',')
                .map(|d| d.trim().parse::<u32>().ok())
                .try_fold(1u32, |acc, d| d.map(|d| acc.saturating_mul(d)))
        })
        .unwrap_or(options.max_threads)
}

/// Transforms `kernel`; returns what was done.
pub fn transform_kernel(
    module: &Module<'_>,
    kernel: FunctionValue<'_>,
    options: &Options,
) -> TransformReport {
    let mut report = TransformReport {
        max_threads: max_threads(kernel, options),
        ..TransformReport::default()
    };
    if !options.transform {
        report
            .reasons
            .push("transform disabled (-sl1-disable / --no-sl1)".into());
        return report;
    }
    let (kernel_shared, dynamic) = kernel_shared_memory(module);
    report.kernel_shared_bytes = kernel_shared;
    if dynamic {
        report.reasons.push(
            "kernel uses dynamic shared memory (extern __shared__): its size is unknown at \
             compile time, so S-L1 stays off"
                .into(),
        );
        return report;
    }

    // Main loops and the data structures worth a line.
    let first = analyse_kernel(module, kernel);
    let convergent = crate::analysis::sync::convergent_calls(&first.blocks);
    let line = options.line_size;
    let mut headers = Vec::new();
    let mut structures = BTreeSet::new();
    for l in first.loops.loops.iter().filter(|l| l.depth == 1) {
        let in_loop: Vec<&Access<'_>> = first
            .accesses
            .iter()
            .filter(|a| l.blocks.contains(&a.block))
            .collect();
        let cacheable: Vec<u32> = in_loop
            .iter()
            .filter(|a| uncacheable_reason(&first, a, line).is_none())
            .filter_map(|a| first.data_structure_of(a).map(|d| d.id))
            .collect();
        let label = first.block_label(l.header);
        if cacheable.is_empty() {
            if let Some(why) = in_loop
                .iter()
                .find_map(|a| uncacheable_reason(&first, a, line))
            {
                report.reasons.push(format!(
                    "loop at {label}: no access can go through the cache (e.g. {why})"
                ));
            }
            continue;
        }
        if let Some(a) = in_loop
            .iter()
            .find(|a| matches!(a.base, Base::Unknown(_) | Base::Mixed(_)))
        {
            report.reasons.push(format!(
                "loop at {label}: an access's address is not traced to one argument ({})",
                match &a.base {
                    Base::Unknown(r) => r,
                    _ => "several arguments",
                }
            ));
            continue;
        }
        let in_loop_convergent: Vec<_> = convergent
            .iter()
            .filter(|c| l.blocks.contains(&c.block))
            .collect();
        if in_loop_convergent.iter().any(|c| !c.block_barrier) {
            // Threads leave the monitoring slice at different iterations; a
            // shuffle or vote in the loop would then be reached by the threads
            // of one warp at different instructions.
            report.reasons.push(format!(
                "loop at {label}: contains a warp collective (shuffle, vote, __syncwarp...); \
                 slicing would split threads that must meet at it"
            ));
            continue;
        }
        // With a block barrier in the loop every thread of the block runs it
        // the same number of times: the slices are left and chosen block-wide.
        let uniform = !in_loop_convergent.is_empty();
        if first
            .loops
            .irreducible_edges
            .iter()
            .any(|(f, t)| l.blocks.contains(f) || l.blocks.contains(t))
        {
            report
                .reasons
                .push(format!("loop at {label}: irreducible control flow"));
            continue;
        }
        structures.extend(cacheable);
        headers.push((first.blocks[l.header].as_raw_block(), label, uniform));
    }
    if headers.is_empty() {
        if report.reasons.is_empty() {
            report
                .reasons
                .push("no main loop with data-structure accesses".into());
        }
        return report;
    }

    // The line buffer: one line per structure and thread at the largest block.
    let available = STATIC_SHARED_LIMIT.saturating_sub(kernel_shared);
    let wanted = u64::from(report.max_threads) * structures.len() as u64 * u64::from(line);
    let buffer = wanted.min(available) / 16 * 16;
    if buffer < 32 * u64::from(line) {
        report.reasons.push(format!(
            "the kernel already uses {kernel_shared} B of static shared memory; {available} B \
             left cannot give a warp one line each, so S-L1 stays off"
        ));
        return report;
    }
    report.shared_bytes = buffer;

    let mut rt = Runtime::new(module, line);
    let buffer_global = add_line_buffer(module, kernel, buffer);
    let function = kernel.as_value_ref();
    let states: Vec<Option<State>> = first
        .data_structures
        .iter()
        .map(|d| {
            structures
                .contains(&d.id)
                .then(|| new_state(function, buffer_global, d))
        })
        .collect();
    let count = edit::entry_alloca(function, i32_type(function), "sl1.count");
    store_before_entry_end(function, count, const_int(i32_type(function), 0));

    for (header, label, uniform) in headers {
        let k = analyse_kernel(module, kernel);
        let Some(l) = k
            .loops
            .loops
            .iter()
            .find(|l| l.depth == 1 && k.blocks[l.header].as_raw_block() == header)
        else {
            continue;
        };
        let slice = LoopSlice {
            k: &k,
            blocks: l
                .blocks
                .iter()
                .map(|&b| k.blocks[b].as_raw_block())
                .collect(),
            header,
            options,
            states: &states,
            count,
            buffer: buffer_global,
            buffer_bytes: buffer,
            uniform,
        };
        let (cached, direct) = slice.apply(&mut rt);
        report.accesses_cached += cached;
        report.accesses_direct.extend(direct);
        report.loops_sliced.push(label);
    }

    cleanup(module, kernel, &rt);
    report.applied = true;
    report
}

/// Inlines the runtime and promotes the state slots back to registers.
fn cleanup(module: &Module<'_>, kernel: FunctionValue<'_>, rt: &Runtime<'_, '_>) {
    // SAFETY: runs LLVM pass pipelines on the live module and kernel; the
    // helpers are deleted only after inlining left them without uses.
    unsafe {
        use inkwell::llvm_sys::transforms::pass_builder::*;
        let opts = LLVMCreatePassBuilderOptions();
        let err = LLVMRunPasses(
            module.as_mut_ptr(),
            c"always-inline".as_ptr(),
            std::ptr::null_mut(),
            opts,
        );
        assert!(err.is_null(), "always-inline failed");
        let err = LLVMRunPassesOnFunction(
            kernel.as_value_ref(),
            c"sroa,early-cse,instcombine<no-verify-fixpoint>,simplifycfg".as_ptr(),
            std::ptr::null_mut(),
            opts,
        );
        assert!(err.is_null(), "clean-up passes failed");
        LLVMDisposePassBuilderOptions(opts);
        for name in rt.helper_names() {
            if let Some(f) = module.get_function(&name) {
                if LLVMGetFirstUse(f.as_value_ref()).is_null() {
                    f.delete();
                }
            }
        }
    }
}

fn i32_type(function: LLVMValueRef) -> LLVMTypeRef {
    // SAFETY: reads the function's context.
    unsafe { LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(function))) }
}

fn const_int(ty: LLVMTypeRef, v: i64) -> LLVMValueRef {
    // SAFETY: builds a constant.
    unsafe { LLVMConstInt(ty, v as u64, 1) }
}

fn store_before_entry_end(function: LLVMValueRef, slot: LLVMValueRef, value: LLVMValueRef) {
    // SAFETY: the entry block has a terminator.
    let entry = unsafe { LLVMGetEntryBasicBlock(function) };
    Builder::before(edit::terminator(entry)).store(value, slot);
}

fn add_line_buffer(module: &Module<'_>, kernel: FunctionValue<'_>, bytes: u64) -> LLVMValueRef {
    let ctx = module.get_context();
    let ty = ctx.i8_type().array_type(bytes as u32);
    let name = format!("sl1.lines.{}", kernel.get_name().to_string_lossy());
    let global = module.add_global(ty, Some(AddressSpace::from(ADDRSPACE_SHARED)), &name);
    global.set_linkage(Linkage::Internal);
    global.set_initializer(&ty.get_poison());
    global.set_alignment(16);
    global.as_value_ref()
}

fn new_state(
    function: LLVMValueRef,
    buffer: LLVMValueRef,
    ds: &crate::analysis::DataStructure,
) -> State {
    let name = ds.name.as_str();
    // SAFETY: builds types and constants in the function's context.
    unsafe {
        let ctx = LLVMGetTypeContext(LLVMTypeOf(function));
        let i64t = LLVMInt64TypeInContext(ctx);
        let i32t = LLVMInt32TypeInContext(ctx);
        let i1t = LLVMInt1TypeInContext(ctx);
        let sp = LLVMPointerTypeInContext(ctx, u32::from(ADDRSPACE_SHARED));
        let slot = |ty, what: &str, init| {
            let s = edit::entry_alloca(function, ty, &format!("sl1.{name}.{what}"));
            store_before_entry_end(function, s, init);
            s
        };
        State {
            restrict: ds.restrict,
            tag: slot(i64t, "tag", const_int(i64t, -1)),
            dirty: slot(i64t, "dirty", const_int(i64t, 0)),
            cached: slot(i1t, "cached", const_int(i1t, 0)),
            line: slot(sp, "line", buffer),
            sim_tag: slot(i64t, "sim.tag", const_int(i64t, -1)),
            sim_hits: slot(i32t, "sim.hits", const_int(i32t, 0)),
            sim_accesses: slot(i32t, "sim.accesses", const_int(i32t, 0)),
        }
    }
}

/// One main loop being sliced.
struct LoopSlice<'a, 'm> {
    k: &'a KernelAnalysis<'m>,
    blocks: BTreeSet<LLVMBasicBlockRef>,
    header: LLVMBasicBlockRef,
    options: &'a Options,
    states: &'a [Option<State>],
    count: LLVMValueRef,
    buffer: LLVMValueRef,
    buffer_bytes: u64,
    /// The loop has a block barrier: leave monitoring, and pick the version
    /// of slice 2, for the whole block at once.
    uniform: bool,
}

impl LoopSlice<'_, '_> {
    fn state_of(&self, a: &Access<'_>) -> Option<(usize, State)> {
        let ds = self.k.data_structure_of(a)?;
        self.states[ds.id as usize].map(|s| (ds.id as usize, s))
    }

    /// Slices the loop; returns the number of cached accesses and the direct ones.
    fn apply(mut self, rt: &mut Runtime<'_, '_>) -> (usize, Vec<DirectAccess>) {
        let function = self.k.function.as_raw();
        let line = self.options.line_size;

        // Sort the loop's accesses and coherence points before changing anything.
        let in_loop: Vec<(&Access<'_>, &crate::analysis::DataStructure)> = self
            .k
            .accesses
            .iter()
            .filter(|a| self.blocks.contains(&block_of(a.inst.as_raw())))
            .filter_map(|a| self.k.data_structure_of(a).map(|ds| (a, ds)))
            .collect();
        let cached: Vec<(Access<'_>, State, Mode)> = in_loop
            .iter()
            .filter(|(a, _)| uncacheable_reason(self.k, a, line).is_none())
            .filter_map(|(a, ds)| self.state_of(a).map(|(_, s)| ((*a).clone(), s, ds.mode)))
            .collect();
        let loop_states: Vec<State> = {
            let mut ids: Vec<usize> = cached
                .iter()
                .filter_map(|(a, _, _)| self.state_of(a).map(|(id, _)| id))
                .collect();
            ids.sort_unstable();
            ids.dedup();
            ids.into_iter().filter_map(|i| self.states[i]).collect()
        };
        // Arguments without restrict may alias one another: their lines form
        // one group, looked up together (the paper's aliased mode).
        let group: Vec<State> = loop_states
            .iter()
            .filter(|s| !s.restrict)
            .copied()
            .collect();
        let mut direct = Vec::new();
        let mut flush_before = Vec::new();
        let mut evict_before = Vec::new();
        for (a, ds) in &in_loop {
            let reason = match (uncacheable_reason(self.k, a, line), self.state_of(a)) {
                (None, Some(_)) => continue,
                (reason, _) => reason.unwrap_or("structure not cached"),
            };
            direct.push(DirectAccess {
                argument: ds.name.clone(),
                kind: a.kind,
                reason: reason.to_string(),
            });
            // What the direct access may see or overwrite must be in memory.
            let holders: Vec<State> = if ds.restrict {
                self.state_of(a).map(|(_, s)| s).into_iter().collect()
            } else {
                group.clone()
            };
            let inst = a.inst.as_raw();
            if a.kind.is_atomic() {
                let addr = pointer_operand(inst, AccessKind::Load);
                evict_before.extend(holders.into_iter().map(|s| (inst, addr, s)));
            } else if !holders.is_empty() {
                flush_before.push((inst, holders));
            }
        }
        // Fences, barriers and calls alike: everything cached goes back first.
        for s in self
            .k
            .sync_points
            .iter()
            .filter(|s| self.blocks.contains(&block_of(s.inst.as_raw())))
        {
            flush_before.push((s.inst.as_raw(), loop_states.clone()));
        }

        // Normal form: no header phis, a preheader, one latch, no value used
        // outside the loop except through a stack slot.
        for phi in edit::instructions(self.header)
            .into_iter()
            .filter(|i| edit::is_phi(*i))
        {
            edit::demote_phi(function, phi);
        }
        let preds = edit::predecessors(function, self.header);
        let preheader = edit::new_block_before(self.header, self.header, "sl1.preheader");
        let latch = edit::new_block_before(self.header, self.header, "sl1.latch");
        for p in preds {
            let target = if self.blocks.contains(&p) {
                latch
            } else {
                preheader
            };
            edit::retarget_edges(p, self.header, target);
        }
        self.blocks.insert(latch);
        // Every exit edge gets a block of its own for the flush: an exit block
        // may be entered from elsewhere too, or be the next loop's header.
        // Splitting comes before demotion so that values leaving the loop are
        // reloaded in these blocks, which the clones' exits share.
        let mut exit_edges: Vec<(LLVMBasicBlockRef, LLVMBasicBlockRef)> = Vec::new();
        for b in edit::blocks(function)
            .into_iter()
            .filter(|b| self.blocks.contains(b))
        {
            for s in edit::successors(b) {
                if !self.blocks.contains(&s) && !exit_edges.contains(&(b, s)) {
                    exit_edges.push((b, s));
                }
            }
        }
        let exits: Vec<LLVMBasicBlockRef> = exit_edges
            .into_iter()
            .map(|(from, to)| edit::split_edge(from, to, "sl1.exit"))
            .collect();
        // Layout order, not the set's (pointer) order: the output must not
        // depend on addresses.
        let all: Vec<LLVMValueRef> = edit::blocks(function)
            .into_iter()
            .filter(|b| self.blocks.contains(b))
            .flat_map(edit::instructions)
            .collect();
        for inst in all {
            edit::demote_uses_outside(function, inst, &self.blocks);
        }

        // Slice 1: the monitoring clone, entered from the preheader.
        let order: Vec<LLVMBasicBlockRef> = edit::blocks(function)
            .into_iter()
            .filter(|b| self.blocks.contains(b))
            .collect();
        let clone = edit::clone_blocks(&order, preheader, ".sl1.monitor");
        edit::retarget_edges(preheader, self.header, clone.blocks[&self.header]);
        let pre = Builder::before(edit::terminator(preheader));
        // SAFETY: builds constants in the function's context.
        let (i32t, i64t) = unsafe {
            let ctx = LLVMGetTypeContext(LLVMTypeOf(function));
            (LLVMInt32TypeInContext(ctx), LLVMInt64TypeInContext(ctx))
        };
        pre.store(const_int(i32t, 0), self.count);
        for s in &loop_states {
            pre.store(const_int(i64t, -1), s.sim_tag);
            pre.store(const_int(i32t, 0), s.sim_hits);
            pre.store(const_int(i32t, 0), s.sim_accesses);
        }
        drop(pre);
        let simulate = rt.simulate();
        for (a, state, _) in &cached {
            let copy = clone.values[&a.inst.as_raw()];
            // SAFETY: `copy` is a live load/store with a successor instruction.
            let after = unsafe { LLVMGetNextInstruction(copy) };
            call(
                after,
                simulate.as_value_ref(),
                &mut [
                    pointer_operand(copy, a.kind),
                    state.sim_tag,
                    state.sim_hits,
                    state.sim_accesses,
                    self.count,
                ],
            );
        }

        // Leave monitoring after THRESHOLD accesses: latch -> decide -> slice 2.
        let monitor_latch = clone.blocks[&latch];
        let decide = edit::new_block_before(self.header, self.header, "sl1.decide");
        let old_br = edit::terminator(monitor_latch);
        {
            let b = Builder::before(old_br);
            let n = b.load(i32t, self.count);
            // SAFETY: builds a compare and a branch before the latch's old branch.
            unsafe {
                let done = LLVMBuildICmp(
                    b.raw(),
                    inkwell::llvm_sys::LLVMIntPredicate::LLVMIntUGE,
                    n,
                    const_int(i32t, i64::from(self.options.threshold)),
                    c"sl1.monitored".as_ptr(),
                );
                let done = if self.uniform {
                    block_reduce(
                        b.raw(),
                        function,
                        "llvm.nvvm.barrier.cta.red.or.aligned.all",
                        done,
                    )
                } else {
                    done
                };
                LLVMBuildCondBr(b.raw(), done, decide, clone.blocks[&self.header]);
            }
        }
        edit::erase(old_br);
        self.emit_decide(decide, &cached);

        // Slice 2: accesses through the cache, coherence, flush on exit.
        for (inst, states) in &flush_before {
            for s in states {
                call_flush(rt, *inst, *s);
            }
        }
        let evict = rt.evict();
        for (inst, addr, s) in &evict_before {
            call(
                *inst,
                evict.as_value_ref(),
                &mut [*addr, s.tag, s.dirty, load_line(*inst, s)],
            );
        }
        for (a, state, _) in &cached {
            self.route_through_cache(rt, a, *state, &cached, &group);
        }
        for exit in exits {
            let at = edit::first_non_phi(exit);
            for s in &loop_states {
                call_flush(rt, at, *s);
            }
        }
        self.version_all_cached(function, decide, &order, &loop_states);
        (cached.len(), direct)
    }

    /// Adds a copy of slice 2 for threads that cache every structure of the
    /// loop, in which the cached flags are constants: the per-access branch on
    /// the flag disappears (a loop unswitch that LLVM does not do on GPUs,
    /// where the flag may differ between threads).
    fn version_all_cached(
        &self,
        function: LLVMValueRef,
        decide: LLVMBasicBlockRef,
        slice2: &[LLVMBasicBlockRef],
        loop_states: &[State],
    ) {
        let slots: Vec<LLVMValueRef> = loop_states.iter().map(|s| s.cached).collect();
        let fast = edit::clone_blocks(slice2, decide, ".sl1.cached");
        // SAFETY: reads and rewrites instructions of the clone, and the
        // decide block's terminator, all live in `function`.
        unsafe {
            let ctx = LLVMGetTypeContext(LLVMTypeOf(function));
            let i1t = LLVMInt1TypeInContext(ctx);
            let yes = LLVMConstInt(i1t, 1, 0);
            for &copy in fast.values.values() {
                if LLVMGetInstructionOpcode(copy) == inkwell::llvm_sys::LLVMOpcode::LLVMLoad
                    && slots.contains(&LLVMGetOperand(copy, 0))
                {
                    edit::replace_uses(copy, yes);
                }
            }
            for &copy in fast.values.values() {
                if LLVMGetInstructionOpcode(copy) == inkwell::llvm_sys::LLVMOpcode::LLVMLoad
                    && slots.contains(&LLVMGetOperand(copy, 0))
                {
                    edit::erase(copy);
                }
            }
            let old = edit::terminator(decide);
            let b = Builder::before(old);
            let mut all = yes;
            for slot in &slots {
                let flag = b.load(i1t, *slot);
                all = LLVMBuildAnd(b.raw(), all, flag, c"sl1.all.cached".as_ptr());
            }
            if self.uniform {
                all = block_reduce(
                    b.raw(),
                    function,
                    "llvm.nvvm.barrier.cta.red.and.aligned.all",
                    all,
                );
            }
            LLVMBuildCondBr(b.raw(), all, fast.blocks[&self.header], self.header);
            edit::erase(old);
        }
    }

    /// Replaces one access of slice 2 by a call into the runtime.
    fn route_through_cache(
        &self,
        rt: &mut Runtime<'_, '_>,
        a: &Access<'_>,
        state: State,
        all: &[(Access<'_>, State, Mode)],
        group: &[State],
    ) {
        let inst = a.inst.as_raw();
        let ty_raw = access_type(inst, a.kind);
        // SAFETY: `ty_raw` is a sized first-class type of the module's context.
        let ty = unsafe { BasicTypeEnum::new(ty_raw) };
        // SAFETY: reads the alignment of a load or store.
        let align = unsafe { LLVMGetAlignment(inst) }.max(1);
        // A structure that the loop also reads must be filled before a write.
        let read_in_loop = all
            .iter()
            .any(|(o, s, _)| s.tag == state.tag && o.kind == AccessKind::Load);
        let site = SiteKind {
            size: a.size as u32,
            align,
            fetch_on_write: read_in_loop,
        };
        let b = Builder::before(inst);
        // SAFETY: reads the i1 type of the context.
        let i1t = unsafe { LLVMInt1TypeInContext(LLVMGetTypeContext(ty_raw)) };
        let cached = b.load(i1t, state.cached);
        let line = load_line(inst, &state);
        let addr = pointer_operand(inst, a.kind);
        if !state.restrict && group.len() > 1 {
            let own = group
                .iter()
                .position(|s| s.tag == state.tag)
                .expect("a member");
            let is_load = a.kind == AccessKind::Load;
            let f = rt.aliased(ty, site, group.len() as u32, own as u32, is_load);
            let mut args = vec![addr];
            if !is_load {
                // SAFETY: operand 0 of a store is the stored value.
                args.push(unsafe { LLVMGetOperand(inst, 0) });
            }
            args.push(cached);
            args.extend(group.iter().map(|s| s.tag));
            args.extend(group.iter().map(|s| s.dirty));
            args.extend(group.iter().map(|s| load_line(inst, s)));
            let v = call(inst, f.as_value_ref(), &mut args);
            if is_load {
                edit::replace_uses(inst, v);
            }
            edit::erase(inst);
            return;
        }
        if a.kind == AccessKind::Load {
            let f = rt.load(ty, site);
            let v = call(
                inst,
                f.as_value_ref(),
                &mut [addr, cached, state.tag, state.dirty, line],
            );
            edit::replace_uses(inst, v);
        } else {
            let f = rt.store(ty, site);
            // SAFETY: operand 0 of a store is the stored value.
            let value = unsafe { LLVMGetOperand(inst, 0) };
            call(
                inst,
                f.as_value_ref(),
                &mut [addr, value, cached, state.tag, state.dirty, line],
            );
        }
        edit::erase(inst);
    }

    /// The decision between the slices (paper 3.2.2), per thread: rank the
    /// structures whose simulated hit rate is above 50% (read-write ones count
    /// half), give lines to the best CLN of them.
    fn emit_decide(&self, decide: LLVMBasicBlockRef, cached: &[(Access<'_>, State, Mode)]) {
        let function = self.k.function.as_raw();
        let mut structures: Vec<(State, Mode)> = Vec::new();
        for (_, s, m) in cached {
            if !structures.iter().any(|(o, _)| o.tag == s.tag) {
                structures.push((*s, *m));
            }
        }
        let b = Builder::before(edit::terminator(decide));
        // SAFETY: builds straight-line code in the decide block, which ends in
        // `br header`; all values are of the function's context.
        unsafe {
            let ctx = LLVMGetTypeContext(LLVMTypeOf(function));
            let i32t = LLVMInt32TypeInContext(ctx);
            let i64t = LLVMInt64TypeInContext(ctx);
            let i8t = LLVMInt8TypeInContext(ctx);
            let module = LLVMGetGlobalParent(function);
            let sreg = |name: &str| {
                let cname =
                    std::ffi::CString::new(format!("llvm.nvvm.read.ptx.sreg.{name}")).unwrap();
                let mut f = LLVMGetNamedFunction(module, cname.as_ptr());
                let fty = LLVMFunctionType(i32t, std::ptr::null_mut(), 0, 0);
                if f.is_null() {
                    f = LLVMAddFunction(module, cname.as_ptr(), fty);
                }
                LLVMBuildCall2(b.raw(), fty, f, std::ptr::null_mut(), 0, c"".as_ptr())
            };
            let r = b.raw();
            let (tx, ty, tz) = (sreg("tid.x"), sreg("tid.y"), sreg("tid.z"));
            let (nx, ny, nz) = (sreg("ntid.x"), sreg("ntid.y"), sreg("ntid.z"));
            let threads = LLVMBuildMul(
                r,
                LLVMBuildMul(r, nx, ny, c"".as_ptr()),
                nz,
                c"sl1.threads".as_ptr(),
            );
            let tid = LLVMBuildAdd(
                r,
                tx,
                LLVMBuildMul(
                    r,
                    nx,
                    LLVMBuildAdd(r, ty, LLVMBuildMul(r, ny, tz, c"".as_ptr()), c"".as_ptr()),
                    c"".as_ptr(),
                ),
                c"sl1.tid".as_ptr(),
            );
            let line = i64::from(self.options.line_size);
            let per_line = LLVMBuildMul(r, threads, const_int(i32t, line), c"".as_ptr());
            let cln = LLVMBuildUDiv(
                r,
                const_int(i32t, self.buffer_bytes as i64),
                per_line,
                c"sl1.cln".as_ptr(),
            );
            let mut eligible = Vec::new();
            let mut score = Vec::new();
            for (s, mode) in &structures {
                let acc = b.load(i32t, s.sim_accesses);
                let hits = b.load(i32t, s.sim_hits);
                let twice = LLVMBuildShl(r, hits, const_int(i32t, 1), c"".as_ptr());
                let good = LLVMBuildICmp(
                    r,
                    inkwell::llvm_sys::LLVMIntPredicate::LLVMIntUGT,
                    twice,
                    acc,
                    c"".as_ptr(),
                );
                eligible.push(good);
                score.push(if *mode == Mode::ReadOnly { twice } else { hits });
            }
            for (d, (s, _)) in structures.iter().enumerate() {
                let mut rank = const_int(i32t, 0);
                for e in 0..structures.len() {
                    if e == d {
                        continue;
                    }
                    let pred = if e < d {
                        inkwell::llvm_sys::LLVMIntPredicate::LLVMIntUGE
                    } else {
                        inkwell::llvm_sys::LLVMIntPredicate::LLVMIntUGT
                    };
                    let better = LLVMBuildICmp(r, pred, score[e], score[d], c"".as_ptr());
                    let counts = LLVMBuildAnd(r, better, eligible[e], c"".as_ptr());
                    rank = LLVMBuildAdd(
                        r,
                        rank,
                        LLVMBuildZExt(r, counts, i32t, c"".as_ptr()),
                        c"".as_ptr(),
                    );
                }
                let fits = LLVMBuildICmp(
                    r,
                    inkwell::llvm_sys::LLVMIntPredicate::LLVMIntULT,
                    rank,
                    cln,
                    c"".as_ptr(),
                );
                let on = LLVMBuildAnd(r, eligible[d], fits, c"sl1.cached".as_ptr());
                b.store(on, s.cached);
                // Slot-major: line `rank` of thread `tid` is element rank*threads + tid.
                let index = LLVMBuildAdd(
                    r,
                    LLVMBuildMul(r, rank, threads, c"".as_ptr()),
                    tid,
                    c"".as_ptr(),
                );
                let index = LLVMBuildZExt(r, index, i64t, c"".as_ptr());
                let offset = LLVMBuildMul(r, index, const_int(i64t, line), c"".as_ptr());
                let mut idx = [offset];
                let ptr = LLVMBuildGEP2(
                    r,
                    i8t,
                    self.buffer,
                    idx.as_mut_ptr(),
                    1,
                    c"sl1.line".as_ptr(),
                );
                let chosen = LLVMBuildSelect(r, on, ptr, self.buffer, c"".as_ptr());
                b.store(chosen, s.line);
            }
        }
    }
}

/// `intrinsic(0, value)`: a block-wide barrier that reduces an i1 (the
/// `__syncthreads_or` / `__syncthreads_and` of CUDA).
fn block_reduce(
    builder: LLVMBuilderRef,
    function: LLVMValueRef,
    intrinsic: &str,
    value: LLVMValueRef,
) -> LLVMValueRef {
    // SAFETY: declares the NVVM intrinsic by its ID (with its attributes) and
    // calls it with (i32 0, i1 value).
    unsafe {
        let module = LLVMGetGlobalParent(function);
        let id = LLVMLookupIntrinsicID(
            intrinsic.as_ptr() as *const std::ffi::c_char,
            intrinsic.len(),
        );
        assert!(id != 0, "LLVM lacks {intrinsic}");
        let decl = LLVMGetIntrinsicDeclaration(module, id, std::ptr::null_mut(), 0);
        let ty = LLVMGlobalGetValueType(decl);
        let ctx = LLVMGetTypeContext(ty);
        let mut args = [LLVMConstInt(LLVMInt32TypeInContext(ctx), 0, 0), value];
        LLVMBuildCall2(
            builder,
            ty,
            decl,
            args.as_mut_ptr(),
            2,
            c"sl1.block".as_ptr(),
        )
    }
}

fn block_of(inst: LLVMValueRef) -> LLVMBasicBlockRef {
    edit::parent_block(inst)
}

fn load_line(before: LLVMValueRef, state: &State) -> LLVMValueRef {
    // SAFETY: reads the shared pointer type of the slot's context.
    let sp = unsafe {
        LLVMPointerTypeInContext(
            LLVMGetTypeContext(LLVMTypeOf(state.line)),
            u32::from(ADDRSPACE_SHARED),
        )
    };
    Builder::before(before).load(sp, state.line)
}

fn call_flush(rt: &mut Runtime<'_, '_>, before: LLVMValueRef, s: State) {
    let flush = rt.flush();
    let line = load_line(before, &s);
    call(before, flush.as_value_ref(), &mut [s.tag, s.dirty, line]);
}

/// Builds `call f(args)` before `before`.
fn call(before: LLVMValueRef, f: LLVMValueRef, args: &mut [LLVMValueRef]) -> LLVMValueRef {
    let b = Builder::before(before);
    // SAFETY: `f` is a function whose parameters match `args`.
    unsafe {
        let fty = LLVMGlobalGetValueType(f);
        LLVMBuildCall2(
            b.raw(),
            fty,
            f,
            args.as_mut_ptr(),
            args.len() as u32,
            c"".as_ptr(),
        )
    }
}
