//! Smaller variants of a spec, for shrinking a failure to a minimal
//! reproducer: each candidate drops or simplifies one thing and stays valid
//! (removing accesses never breaks the race and bounds rules).

use crate::spec::*;

/// Every one-step simplification of `spec`, biggest cuts first; all of them
/// pass `validate` when `spec` does.
pub fn shrink_candidates(spec: &KernelSpec) -> Vec<KernelSpec> {
    let mut out = Vec::new();
    let mut push = |s: KernelSpec| {
        if s != *spec && s.validate().is_ok() && !out.contains(&s) {
            out.push(s);
        }
    };
    // Whole items.
    for k in 0..spec.items.len() {
        let mut s = spec.clone();
        s.items.remove(k);
        push(s);
    }
    // Unused arguments, then arguments with everything that uses them.
    for k in (0..spec.args.len()).rev() {
        if spec.args.len() > 1 {
            push(remove_arg(spec, k));
        }
    }
    if spec.shared_bytes.is_some() {
        let mut s = spec.clone();
        s.shared_bytes = None;
        for_each_loop(&mut s, |l| {
            l.ops.retain(|op| *op != Op::Stage);
            if let Some(inner) = &mut l.inner {
                inner.ops.retain(|op| *op != Op::Stage);
            }
            if l.barrier == LoopBarrier::Exchange {
                l.barrier = LoopBarrier::Plain;
            }
        });
        push(s);
        let mut s = spec.clone();
        s.shared_bytes = Some(MIN_SHARED);
        push(s);
    }
    // Parts of loops.
    for (k, item) in spec.items.iter().enumerate() {
        let Item::Loop(l) = item else { continue };
        let mut variants = Vec::new();
        if l.inner.is_some() {
            variants.push(Loop {
                inner: None,
                ..l.clone()
            });
        }
        if l.sink.is_some() {
            variants.push(Loop {
                sink: None,
                ..l.clone()
            });
        }
        if l.barrier != LoopBarrier::None {
            variants.push(Loop {
                barrier: LoopBarrier::None,
                ..l.clone()
            });
        }
        if l.kind == LoopKind::Uniform && l.barrier == LoopBarrier::None {
            variants.push(Loop {
                kind: LoopKind::Chunk,
                ..l.clone()
            });
        }
        if l.reverse {
            variants.push(Loop {
                reverse: false,
                ..l.clone()
            });
        }
        if l.narrow {
            variants.push(Loop {
                narrow: false,
                ..l.clone()
            });
        }
        for o in 0..l.ops.len() {
            let mut v = l.clone();
            v.ops.remove(o);
            variants.push(v);
            for op in simpler_ops(&l.ops[o]) {
                let mut v = l.clone();
                v.ops[o] = op;
                variants.push(v);
            }
        }
        if let Some(inner) = &l.inner {
            for o in 0..inner.ops.len() {
                let mut v = l.clone();
                v.inner.as_mut().unwrap().ops.remove(o);
                variants.push(v);
                for op in simpler_ops(&inner.ops[o]) {
                    let mut v = l.clone();
                    v.inner.as_mut().unwrap().ops[o] = op;
                    variants.push(v);
                }
            }
            if inner.trips > 1 {
                let mut v = l.clone();
                v.inner.as_mut().unwrap().trips = 1;
                variants.push(v);
            }
        }
        for v in variants {
            let mut s = spec.clone();
            s.items[k] = Item::Loop(v);
            push(s);
        }
    }
    // Plainer arguments.
    for k in 0..spec.args.len() {
        let a = &spec.args[k];
        let plain = [
            Arg {
                stride: 1,
                ..a.clone()
            },
            Arg {
                readonly_attr: false,
                ..a.clone()
            },
        ];
        for p in plain {
            let mut s = spec.clone();
            s.args[k] = p;
            // Strides must match across an in-place pair.
            if let Some(b) = a.alias_of {
                s.args[b].stride = s.args[k].stride;
            }
            clamp_linear(&mut s);
            push(s);
        }
    }
    out
}

/// Simpler forms of one op: fewer sources, own indices.
fn simpler_ops(op: &Op) -> Vec<Op> {
    let mut out = Vec::new();
    if let Op::Update { dst, srcs, arith } = op {
        for k in 0..srcs.len() {
            let mut srcs = srcs.clone();
            srcs.remove(k);
            out.push(Op::Update {
                dst: dst.clone(),
                srcs,
                arith: *arith,
            });
        }
        if *arith != Arith::Add(0) {
            out.push(Op::Update {
                dst: dst.clone(),
                srcs: srcs.clone(),
                arith: Arith::Add(0),
            });
        }
        for k in 0..srcs.len() {
            if !matches!(srcs[k].index, Index::Linear { c: 0 }) {
                let mut srcs = srcs.clone();
                srcs[k].index = Index::Linear { c: 0 };
                out.push(Op::Update {
                    dst: dst.clone(),
                    srcs,
                    arith: *arith,
                });
            }
        }
    }
    let linear = |a: &Access| Access {
        arg: a.arg,
        index: Index::Linear { c: 0 },
    };
    match op {
        Op::Reduce { src } if src.index != (Index::Linear { c: 0 }) => {
            out.push(Op::Reduce { src: linear(src) })
        }
        Op::Atomic { target, op, global } => {
            if target.index != (Index::Linear { c: 0 }) {
                out.push(Op::Atomic {
                    target: linear(target),
                    op: *op,
                    global: *global,
                });
            }
            if *global {
                out.push(Op::Atomic {
                    target: target.clone(),
                    op: *op,
                    global: false,
                });
            }
        }
        Op::EarlyExit { src, mask, value } if src.index != (Index::Linear { c: 0 }) => {
            out.push(Op::EarlyExit {
                src: linear(src),
                mask: *mask,
                value: *value,
            })
        }
        _ => {}
    }
    out
}

fn for_each_loop(spec: &mut KernelSpec, mut f: impl FnMut(&mut Loop)) {
    for item in &mut spec.items {
        if let Item::Loop(l) = item {
            f(l);
        }
    }
}

/// Every access of a loop, mutably.
fn accesses(l: &mut Loop) -> Vec<&mut Access> {
    let mut out = Vec::new();
    let inner = l.inner.iter_mut().flat_map(|i| i.ops.iter_mut());
    for op in l.ops.iter_mut().chain(inner) {
        match op {
            Op::Update { dst, srcs, .. } => {
                out.push(dst);
                out.extend(srcs.iter_mut());
            }
            Op::Reduce { src } | Op::EarlyExit { src, .. } => out.push(src),
            Op::Atomic { target, .. } => out.push(target),
            Op::Fence(_) | Op::Stage => {}
        }
    }
    out.extend(l.sink.iter_mut());
    out
}

/// After a stride shrank, `Linear { c }` must stay below it.
fn clamp_linear(spec: &mut KernelSpec) {
    let strides: Vec<u64> = spec.args.iter().map(|a| a.stride).collect();
    for_each_loop(spec, |l| {
        for a in accesses(l) {
            if let Index::Linear { c } = &mut a.index {
                *c = (*c).min(strides[a.arg] - 1);
            }
        }
    });
}

/// Whether `op` touches argument `k` (directly or as an index array).
fn uses(op: &Op, k: usize) -> bool {
    let hit = |a: &Access| a.arg == k || a.index == Index::Indirect { via: k };
    match op {
        Op::Update { dst, srcs, .. } => hit(dst) || srcs.iter().any(hit),
        Op::Reduce { src } | Op::EarlyExit { src, .. } => hit(src),
        Op::Atomic { target, .. } => hit(target),
        Op::Fence(_) | Op::Stage => false,
    }
}

/// `spec` without argument `k` and what uses it; later arguments renumbered.
fn remove_arg(spec: &KernelSpec, k: usize) -> KernelSpec {
    let mut s = spec.clone();
    for_each_loop(&mut s, |l| {
        l.ops.retain(|op| !uses(op, k));
        if let Some(inner) = &mut l.inner {
            inner.ops.retain(|op| !uses(op, k));
        }
        if l.sink.as_ref().is_some_and(|a| a.arg == k) {
            l.sink = None;
        }
    });
    s.args.remove(k);
    let renumber = |x: usize| if x > k { x - 1 } else { x };
    for a in &mut s.args {
        a.alias_of = match a.alias_of {
            Some(b) if b == k => None,
            Some(b) => Some(renumber(b)),
            None => None,
        };
    }
    for_each_loop(&mut s, |l| {
        for a in accesses(l) {
            a.arg = renumber(a.arg);
            if let Index::Indirect { via } = &mut a.index {
                *via = renumber(*via);
            }
        }
    });
    s
}
