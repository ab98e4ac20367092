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
    // Whole kernels, then whole items.
    if spec.kernels.len() > 1 {
        for b in (0..spec.kernels.len()).rev() {
            let mut s = spec.clone();
            s.kernels.remove(b);
            push(s);
        }
    }
    for (b, body) in spec.kernels.iter().enumerate() {
        for k in 0..body.items.len() {
            let mut s = spec.clone();
            s.kernels[b].items.remove(k);
            push(s);
        }
    }
    // Unused arguments, then arguments with everything that uses them.
    for k in (0..spec.args.len()).rev() {
        if spec.args.len() > 1 {
            push(remove_arg(spec, k));
        }
    }
    for (b, body) in spec.kernels.iter().enumerate() {
        if body.shared != SharedMem::None {
            let mut s = spec.clone();
            let body = &mut s.kernels[b];
            body.shared = SharedMem::None;
            for item in &mut body.items {
                let Item::Loop(l) = item else { continue };
                l.ops.retain(|op| *op != Op::Stage);
                if let Some(inner) = &mut l.inner {
                    inner.ops.retain(|op| *op != Op::Stage);
                }
                if let Some(scan) = &mut l.scan {
                    scan.ops.retain(|op| *op != Op::Stage);
                }
                if l.barrier == LoopBarrier::Exchange {
                    l.barrier = LoopBarrier::Plain;
                }
            }
            push(s);
            let mut s = spec.clone();
            s.kernels[b].shared = SharedMem::Static { bytes: MIN_SHARED };
            push(s);
        }
        if body.two_d {
            let mut s = spec.clone();
            s.kernels[b].two_d = false;
            push(s);
        }
    }
    // Parts of loops.
    for (b, body) in spec.kernels.iter().enumerate() {
        for (k, item) in body.items.iter().enumerate() {
            let Item::Loop(l) = item else { continue };
            for v in loop_variants(l) {
                let mut s = spec.clone();
                s.kernels[b].items[k] = Item::Loop(v);
                push(s);
            }
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
            Arg {
                offset: 0,
                align: None,
                ..a.clone()
            },
            Arg {
                offset: 0,
                ..a.clone()
            },
            Arg {
                shift: 0,
                ..a.clone()
            },
            Arg {
                atomic: false,
                ..a.clone()
            },
        ];
        for p in plain {
            let mut s = spec.clone();
            s.args[k] = p;
            // Strides, offsets and alignments match across an in-place pair.
            let twin = a
                .alias_of
                .or_else(|| spec.args.iter().position(|o| o.alias_of == Some(k)));
            if let Some(t) = twin {
                s.args[t].stride = s.args[k].stride;
                s.args[t].offset = s.args[k].offset;
                s.args[t].align = s.args[k].align;
            }
            clamp_linear(&mut s);
            push(s);
        }
    }
    out
}

/// One-step simplifications of a loop.
fn loop_variants(l: &Loop) -> Vec<Loop> {
    let mut variants = Vec::new();
    if l.inner.is_some() {
        variants.push(Loop {
            inner: None,
            ..l.clone()
        });
    }
    if l.scan.is_some() {
        variants.push(Loop {
            scan: None,
            ..l.clone()
        });
    }
    if !l.warp.is_empty() {
        variants.push(Loop {
            warp: Vec::new(),
            ..l.clone()
        });
    }
    if !l.tail.is_empty() {
        variants.push(Loop {
            tail: Vec::new(),
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
    if l.kind == LoopKind::Uniform && l.barrier == LoopBarrier::None && l.warp.is_empty() {
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
        if inner.repeats > 0 {
            let mut v = l.clone();
            v.inner.as_mut().unwrap().repeats = 0;
            variants.push(v);
        }
    }
    if let Some(scan) = &l.scan {
        for o in 0..scan.ops.len() {
            let mut v = l.clone();
            v.scan.as_mut().unwrap().ops.remove(o);
            variants.push(v);
            for op in simpler_ops(&scan.ops[o]) {
                let mut v = l.clone();
                v.scan.as_mut().unwrap().ops[o] = op;
                variants.push(v);
            }
        }
        if scan.gated {
            let mut v = l.clone();
            v.scan.as_mut().unwrap().gated = false;
            variants.push(v);
        }
        if scan.bound > 1 {
            let mut v = l.clone();
            v.scan.as_mut().unwrap().bound = 1;
            variants.push(v);
        }
        if scan.matched.is_some() {
            let mut v = l.clone();
            v.scan.as_mut().unwrap().matched = None;
            variants.push(v);
        }
    }
    for (list, tail) in [(&l.warp, false), (&l.tail, true)] {
        if list.len() > 1 {
            for c in 0..list.len() {
                let mut v = l.clone();
                if tail {
                    v.tail.remove(c);
                } else {
                    v.warp.remove(c);
                }
                variants.push(v);
            }
        }
    }
    variants
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
        Op::Tally { src, .. } => out.push(Op::Reduce { src: src.clone() }),
        Op::Classify {
            src,
            cases,
            default,
        } => {
            out.push(Op::Reduce { src: src.clone() });
            if cases.len() > 1 {
                out.push(Op::Classify {
                    src: src.clone(),
                    cases: cases[..1].to_vec(),
                    default: *default,
                });
            }
        }
        Op::Call { src } => {
            out.push(Op::Reduce { src: src.clone() });
            if src.index != (Index::Linear { c: 0 }) {
                out.push(Op::Call { src: linear(src) });
            }
        }
        Op::Atomic { target, op, global } => {
            if matches!(op, AtomicOp::FMin | AtomicOp::FMax) {
                out.push(Op::Atomic {
                    target: target.clone(),
                    op: AtomicOp::FAdd,
                    global: *global,
                });
            }
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

/// After a stride shrank, `Linear { c }` and `InnerWindow { c }` must stay
/// below it.
fn clamp_linear(spec: &mut KernelSpec) {
    let strides: Vec<u64> = spec.args.iter().map(|a| a.stride).collect();
    spec.loops_mut().for_each(|l| {
        for a in l.accesses_mut() {
            if let Index::Linear { c }
            | Index::InnerWindow { c }
            | Index::Fixed { c }
            | Index::Broadcast { c } = &mut a.index
            {
                *c = (*c).min(strides[a.arg] - 1);
            }
        }
    });
}

/// Whether `op` touches argument `k` (directly or as an index array).
fn uses(op: &Op, k: usize) -> bool {
    op.accesses()
        .into_iter()
        .any(|a| a.arg == k || a.index == Index::Indirect { via: k })
}

/// `spec` without argument `k` and what uses it; later arguments renumbered.
fn remove_arg(spec: &KernelSpec, k: usize) -> KernelSpec {
    let mut s = spec.clone();
    s.loops_mut().for_each(|l| {
        l.ops.retain(|op| !uses(op, k));
        if let Some(inner) = &mut l.inner {
            inner.ops.retain(|op| !uses(op, k));
        }
        if l.scan.as_ref().is_some_and(|s| s.src == k) {
            l.scan = None;
        }
        if let Some(scan) = &mut l.scan {
            scan.ops.retain(|op| !uses(op, k));
            if scan.matched.as_ref().is_some_and(|m| m.src == k) {
                scan.matched = None;
            }
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
    s.loops_mut().for_each(|l| {
        if let Some(scan) = &mut l.scan {
            scan.src = renumber(scan.src);
            if let Some(m) = &mut scan.matched {
                m.src = renumber(m.src);
            }
        }
        for a in l.accesses_mut() {
            a.arg = renumber(a.arg);
            if let Index::Indirect { via } = &mut a.index {
                *via = renumber(*via);
            }
        }
    });
    s
}
