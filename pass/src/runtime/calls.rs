//! The runtime's calls, typed: what each helper takes, by name, put in the
//! order its signature (this module's siblings) declares, and read back
//! from the calls of a routed access. The transform calls the runtime only
//! through these.

use inkwell::llvm_sys::prelude::LLVMValueRef;
use inkwell::types::BasicTypeEnum;
use inkwell::values::AsValueRef;

use super::base::{Runtime, SiteKind};
use crate::llvm::{build, edit};

/// A structure's line as a helper takes it: the address it holds (`tag`),
/// its dirty mask, the thread's line in shared memory, the line size.
#[derive(Clone, Copy, Debug)]
pub struct LineOperands {
    pub tag: LLVMValueRef,
    pub dirty: LLVMValueRef,
    pub line: LLVMValueRef,
    pub bytes: LLVMValueRef,
}

/// One access routed through a structure's line: its address, the value a
/// store writes, whether the thread caches the structure.
#[derive(Clone, Copy, Debug)]
pub struct AccessOperands {
    pub addr: LLVMValueRef,
    /// The stored value (stores only).
    pub value: Option<LLVMValueRef>,
    pub cached: LLVMValueRef,
}

/// A member of an aliased group as `sl1.aload.*` / `sl1.astore.*` take it.
#[derive(Clone, Copy, Debug)]
pub struct GroupMember {
    pub tag: LLVMValueRef,
    pub dirty: LLVMValueRef,
    pub line: LLVMValueRef,
    pub cached: LLVMValueRef,
}

/// The monitoring slice's simulated line of a structure.
#[derive(Clone, Copy, Debug)]
pub struct Simulated {
    pub tag: LLVMValueRef,
    pub hits: LLVMValueRef,
    pub accesses: LLVMValueRef,
}

/// A stage: the line it loads ahead and where it keeps it.
#[derive(Clone, Copy, Debug)]
pub struct Stage {
    /// The line to load (its address).
    pub from: LLVMValueRef,
    /// The tag the stage holds after (-1: nothing staged).
    pub holds: LLVMValueRef,
    /// The stage's tag slot and its words.
    pub tag: LLVMValueRef,
    pub words: LLVMValueRef,
}

/// A routed access's call (`sl1.load.*`, `sl1.store.*`) read back.
#[derive(Clone, Copy, Debug)]
pub struct RoutedCall {
    pub access: AccessOperands,
    pub line: LineOperands,
}

impl RoutedCall {
    /// The operands of `call`, an `sl1.load.*` (`is_load`) or `sl1.store.*`
    /// call `emit_load` / `emit_store` made.
    pub fn read(call: LLVMValueRef, is_load: bool) -> RoutedCall {
        let operand = |i: u32| build::operand(call, i);
        let first_state = if is_load { 1 } else { 2 };
        RoutedCall {
            access: AccessOperands {
                addr: operand(0),
                value: (!is_load).then(|| operand(1)),
                cached: operand(first_state),
            },
            line: LineOperands {
                tag: operand(first_state + 1),
                dirty: operand(first_state + 2),
                line: operand(first_state + 3),
                bytes: operand(first_state + 4),
            },
        }
    }
}

impl<'ctx> Runtime<'ctx, '_> {
    /// `sl1.load.*` (or the staged `sl1.sload.*`, which takes the stage)
    /// before `before`; returns the loaded value.
    pub fn emit_load(
        &mut self,
        before: LLVMValueRef,
        (ty, site): (BasicTypeEnum<'ctx>, SiteKind),
        access: AccessOperands,
        line: LineOperands,
        stage: Option<(LLVMValueRef, LLVMValueRef)>,
    ) -> LLVMValueRef {
        let f = self.load(ty, site, stage.is_some());
        let mut args = vec![access.addr, access.cached, line.tag, line.dirty, line.line];
        if let Some((tag, words)) = stage {
            args.extend([tag, words]);
        }
        args.push(line.bytes);
        edit::call(before, f.as_value_ref(), &mut args)
    }

    /// `sl1.store.*` before `before`.
    pub fn emit_store(
        &mut self,
        before: LLVMValueRef,
        (ty, site): (BasicTypeEnum<'ctx>, SiteKind),
        access: AccessOperands,
        line: LineOperands,
    ) -> LLVMValueRef {
        let f = self.store(ty, site);
        let value = access.value.expect("a store writes a value");
        edit::call(
            before,
            f.as_value_ref(),
            &mut [
                access.addr,
                value,
                access.cached,
                line.tag,
                line.dirty,
                line.line,
                line.bytes,
            ],
        )
    }

    /// `sl1.aload.*` / `sl1.astore.*` of member `own` of an aliased group
    /// (`mru`: the slot of the member it used last) before `before`;
    /// returns the loaded value for a load.
    pub fn emit_aliased(
        &mut self,
        before: LLVMValueRef,
        (ty, site): (BasicTypeEnum<'ctx>, SiteKind),
        access: AccessOperands,
        (group, own, mru): (&[GroupMember], usize, LLVMValueRef),
        bytes: LLVMValueRef,
    ) -> LLVMValueRef {
        let is_load = access.value.is_none();
        let f = self.aliased(ty, site, group.len() as u32, own as u32, is_load);
        let mut args = vec![access.addr];
        args.extend(access.value);
        args.push(access.cached);
        args.extend(group.iter().map(|m| m.tag));
        args.extend(group.iter().map(|m| m.dirty));
        args.extend(group.iter().map(|m| m.line));
        args.extend(group.iter().map(|m| m.cached));
        args.push(mru);
        args.push(bytes);
        edit::call(before, f.as_value_ref(), &mut args)
    }

    /// `sl1.hit.load.*` in a line run: no tag check, no fill.
    pub fn emit_hit_load(
        &mut self,
        before: LLVMValueRef,
        (ty, site): (BasicTypeEnum<'ctx>, SiteKind),
        addr: LLVMValueRef,
        line: LineOperands,
    ) -> LLVMValueRef {
        let f = self.hit_load(ty, site);
        edit::call(before, f.as_value_ref(), &mut [addr, line.tag, line.line])
    }

    /// `sl1.hit.store.*` in a line run; sets the dirty bits when `mark`.
    pub fn emit_hit_store(
        &mut self,
        before: LLVMValueRef,
        (ty, site): (BasicTypeEnum<'ctx>, SiteKind),
        (addr, value): (LLVMValueRef, LLVMValueRef),
        line: LineOperands,
        mark: bool,
    ) -> LLVMValueRef {
        let f = self.hit_store(ty, site, mark);
        edit::call(
            before,
            f.as_value_ref(),
            &mut [addr, value, line.tag, line.dirty, line.line],
        )
    }

    /// `sl1.flush` of a structure's line before `before`.
    pub fn emit_flush(&mut self, before: LLVMValueRef, line: LineOperands) {
        let f = self.flush();
        edit::call(
            before,
            f.as_value_ref(),
            &mut [line.tag, line.dirty, line.line, line.bytes],
        );
    }

    /// `sl1.evict` of the line holding `addr` before each `before` (an
    /// atomic), of a loop's atomics in turn. The helper is made first,
    /// whether or not the loop has one, so that the helpers' order, which
    /// numbers the inlined blocks' names, stays the same.
    pub fn emit_evictions(
        &mut self,
        evictions: impl IntoIterator<Item = (LLVMValueRef, LLVMValueRef, LineOperands)>,
    ) {
        let f = self.evict();
        for (before, addr, line) in evictions {
            edit::call(
                before,
                f.as_value_ref(),
                &mut [addr, line.tag, line.dirty, line.line, line.bytes],
            );
        }
    }

    /// `sl1.simulate` of an access to `addr` before `before`, counting into
    /// the monitoring slice's `count`.
    pub fn emit_simulate(
        &mut self,
        before: LLVMValueRef,
        addr: LLVMValueRef,
        sim: Simulated,
        count: LLVMValueRef,
    ) {
        let f = self.simulate();
        edit::call(
            before,
            f.as_value_ref(),
            &mut [addr, sim.tag, sim.hits, sim.accesses, count],
        );
    }

    /// `sl1.stage` of a line of `line_bytes` before `before`.
    pub fn emit_stage(&mut self, before: LLVMValueRef, stage: Stage, line_bytes: LLVMValueRef) {
        let f = self.stage();
        edit::call(
            before,
            f.as_value_ref(),
            &mut [stage.from, stage.holds, stage.tag, stage.words, line_bytes],
        );
    }
}
