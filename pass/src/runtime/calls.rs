//! The runtime's calls, typed: what each helper takes, by name, put in the
//! order its signature (this module's siblings) declares, and read back
//! from the calls of a routed access. The transform calls the runtime only
//! through these.

use inkwell::types::BasicTypeEnum;
use inkwell::values::FunctionValue;

use super::base::{Runtime, SiteKind};
use crate::llvm::ir::Value;
use crate::llvm::typed::TypedBuilder;

/// A structure's line as a helper takes it: the address it holds (`tag`),
/// its dirty mask, the thread's line in shared memory, the line size.
#[derive(Clone, Copy, Debug)]
pub struct LineOperands<'m> {
    pub tag: Value<'m>,
    pub dirty: Value<'m>,
    pub line: Value<'m>,
    pub bytes: Value<'m>,
}

/// One access routed through a structure's line: its address, the value a
/// store writes, whether the thread caches the structure.
#[derive(Clone, Copy, Debug)]
pub struct AccessOperands<'m> {
    pub addr: Value<'m>,
    /// The stored value (stores only).
    pub value: Option<Value<'m>>,
    pub cached: Value<'m>,
}

/// A member of an aliased group as `sl1.aload.*` / `sl1.astore.*` take it.
#[derive(Clone, Copy, Debug)]
pub struct GroupMember<'m> {
    pub tag: Value<'m>,
    pub dirty: Value<'m>,
    pub line: Value<'m>,
    pub cached: Value<'m>,
}

/// The monitoring slice's simulated line of a structure.
#[derive(Clone, Copy, Debug)]
pub struct Simulated<'m> {
    pub tag: Value<'m>,
    pub hits: Value<'m>,
    pub accesses: Value<'m>,
}

/// A stage: the line it loads ahead and where it keeps it.
#[derive(Clone, Copy, Debug)]
pub struct Stage<'m> {
    /// The line to load (its address).
    pub from: Value<'m>,
    /// The tag the stage holds after (-1: nothing staged).
    pub holds: Value<'m>,
    /// The stage's tag slot and its words.
    pub tag: Value<'m>,
    pub words: Value<'m>,
}

/// A routed access's call (`sl1.load.*`, `sl1.store.*`) read back.
#[derive(Clone, Copy, Debug)]
pub struct RoutedCall<'m> {
    pub access: AccessOperands<'m>,
    pub line: LineOperands<'m>,
}

impl<'m> RoutedCall<'m> {
    /// The operands of `call`, an `sl1.load.*` (`is_load`) or `sl1.store.*`
    /// call `emit_load` / `emit_store` made.
    pub fn read(call: Value<'m>, is_load: bool) -> RoutedCall<'m> {
        let operand = |i: u32| call.operand(i).expect("a routed call's operand");
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

/// A call of the runtime's helper `f` with `args` before `before`.
fn call<'m>(before: Value<'m>, f: FunctionValue<'_>, args: &[Value<'m>]) -> Value<'m> {
    TypedBuilder::before(before).call(f, args)
}

impl<'ctx> Runtime<'ctx, '_> {
    /// `sl1.load.*` (or the staged `sl1.sload.*`, which takes the stage)
    /// before `before`; returns the loaded value.
    pub fn emit_load<'m>(
        &mut self,
        before: Value<'m>,
        (ty, site): (BasicTypeEnum<'ctx>, SiteKind),
        access: AccessOperands<'m>,
        line: LineOperands<'m>,
        stage: Option<(Value<'m>, Value<'m>)>,
    ) -> Value<'m> {
        let f = self.load(ty, site, stage.is_some());
        let mut args = vec![access.addr, access.cached, line.tag, line.dirty, line.line];
        if let Some((tag, words)) = stage {
            args.extend([tag, words]);
        }
        args.push(line.bytes);
        call(before, f, &args)
    }

    /// `sl1.store.*` before `before`.
    pub fn emit_store<'m>(
        &mut self,
        before: Value<'m>,
        (ty, site): (BasicTypeEnum<'ctx>, SiteKind),
        access: AccessOperands<'m>,
        line: LineOperands<'m>,
    ) -> Value<'m> {
        let f = self.store(ty, site);
        let value = access.value.expect("a store writes a value");
        call(
            before,
            f,
            &[
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
    pub fn emit_aliased<'m>(
        &mut self,
        before: Value<'m>,
        (ty, site): (BasicTypeEnum<'ctx>, SiteKind),
        access: AccessOperands<'m>,
        (group, own, mru): (&[GroupMember<'m>], usize, Value<'m>),
        bytes: Value<'m>,
    ) -> Value<'m> {
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
        call(before, f, &args)
    }

    /// `sl1.hit.load.*` in a line run: no tag check, no fill.
    pub fn emit_hit_load<'m>(
        &mut self,
        before: Value<'m>,
        (ty, site): (BasicTypeEnum<'ctx>, SiteKind),
        addr: Value<'m>,
        line: LineOperands<'m>,
    ) -> Value<'m> {
        let f = self.hit_load(ty, site);
        call(before, f, &[addr, line.tag, line.line])
    }

    /// `sl1.hit.store.*` in a line run; sets the dirty bits when `mark`.
    pub fn emit_hit_store<'m>(
        &mut self,
        before: Value<'m>,
        (ty, site): (BasicTypeEnum<'ctx>, SiteKind),
        (addr, value): (Value<'m>, Value<'m>),
        line: LineOperands<'m>,
        mark: bool,
    ) -> Value<'m> {
        let f = self.hit_store(ty, site, mark);
        call(before, f, &[addr, value, line.tag, line.dirty, line.line])
    }

    /// `sl1.flush` of a structure's line before `before`.
    pub fn emit_flush<'m>(&mut self, before: Value<'m>, line: LineOperands<'m>) {
        let f = self.flush();
        call(before, f, &[line.tag, line.dirty, line.line, line.bytes]);
    }

    /// `sl1.evict` of the line holding `addr` before each `before` (an
    /// atomic), of a loop's atomics in turn. The helper is made first,
    /// whether or not the loop has one, so that the helpers' order, which
    /// numbers the inlined blocks' names, stays the same.
    pub fn emit_evictions<'m>(
        &mut self,
        evictions: impl IntoIterator<Item = (Value<'m>, Value<'m>, LineOperands<'m>)>,
    ) {
        let f = self.evict();
        for (before, addr, line) in evictions {
            call(
                before,
                f,
                &[addr, line.tag, line.dirty, line.line, line.bytes],
            );
        }
    }

    /// `sl1.simulate` of an access to `addr` before `before`, counting into
    /// the monitoring slice's `count`.
    pub fn emit_simulate<'m>(
        &mut self,
        before: Value<'m>,
        addr: Value<'m>,
        sim: Simulated<'m>,
        count: Value<'m>,
    ) {
        let f = self.simulate();
        call(before, f, &[addr, sim.tag, sim.hits, sim.accesses, count]);
    }

    /// `sl1.stage` of a line of `line_bytes` before `before`.
    pub fn emit_stage<'m>(&mut self, before: Value<'m>, stage: Stage<'m>, line_bytes: Value<'m>) {
        let f = self.stage();
        call(
            before,
            f,
            &[stage.from, stage.holds, stage.tag, stage.words, line_bytes],
        );
    }
}
