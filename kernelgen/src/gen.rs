//! Drawing a random `KernelSpec` from a seed. Every choice respects the
//! roles of `spec::Role`, so what is drawn is valid by construction (the
//! tests check it with `KernelSpec::validate`).

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::spec::*;

/// The spec for `seed` (the same on every machine: ChaCha8).
pub fn spec(seed: u64) -> KernelSpec {
    let mut g = Gen {
        rng: ChaCha8Rng::seed_from_u64(seed),
        spec: KernelSpec {
            name: format!("k{seed}"),
            args: Vec::new(),
            shared_bytes: None,
            items: Vec::new(),
        },
        shared_ops: Vec::new(),
    };
    g.args();
    if g.rng.random_bool(0.2) {
        // Mostly large: the kernel leaves S-L1 little or no room.
        let bytes = if g.rng.random_bool(0.7) {
            g.rng.random_range(40 * 1024..=MAX_SHARED)
        } else {
            g.rng.random_range(MIN_SHARED..=MAX_SHARED)
        };
        g.spec.shared_bytes = Some(bytes / 16 * 16);
    }
    // Mostly small kernels: many of them test more than a few big ones.
    let loops = *[1, 1, 1, 2, 2, 3].choose(&mut g.rng).unwrap();
    for _ in 0..loops {
        if g.rng.random_bool(0.15) {
            let item = if g.rng.random_bool(0.5) {
                Item::Barrier
            } else {
                Item::Fence(g.fence())
            };
            g.spec.items.push(item);
        }
        let l = g.a_loop();
        g.spec.items.push(Item::Loop(l));
    }
    g.spec
}

struct Gen {
    rng: ChaCha8Rng,
    spec: KernelSpec,
    /// The one atomic operation each Shared argument gets, once drawn:
    /// different operations on one element do not commute.
    shared_ops: Vec<(usize, AtomicOp)>,
}

impl Gen {
    fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p)
    }

    fn args(&mut self) {
        let count = self.rng.random_range(1..=6);
        for _ in 0..count {
            let role = match self.rng.random_range(0..10) {
                0..=3 => Role::ReadOnly,
                4..=8 => Role::Owned,
                _ => Role::Shared,
            };
            let elem = if role == Role::Shared {
                *[Elem::I32, Elem::I64].choose(&mut self.rng).unwrap()
            } else {
                *Elem::ALL.choose(&mut self.rng).unwrap()
            };
            let stride = *[1, 1, 1, 1, 2, 3, 4].choose(&mut self.rng).unwrap();
            let noalias = self.chance(0.6);
            let readonly_attr = noalias && role == Role::ReadOnly && self.chance(0.5);
            self.spec.args.push(Arg {
                elem,
                role,
                noalias,
                readonly_attr,
                stride,
                alias_of: None,
            });
        }
        // Every kernel writes something.
        if !self.spec.args.iter().any(|a| a.role == Role::Owned) {
            let k = self.rng.random_range(0..count);
            let a = &mut self.spec.args[k];
            a.role = Role::Owned;
            a.readonly_attr = false;
        }
        // In-place: a second argument that the host binds to an Owned one.
        if count < 6 && self.chance(0.2) {
            let owned: Vec<usize> = (0..count)
                .filter(|&k| self.spec.args[k].role == Role::Owned)
                .collect();
            let k = *owned.choose(&mut self.rng).unwrap();
            self.spec.args[k].noalias = false;
            let twin = Arg {
                noalias: false,
                alias_of: Some(k),
                ..self.spec.args[k].clone()
            };
            self.spec.args.push(twin);
        }
    }

    fn fence(&mut self) -> Fence {
        *[
            Fence::SeqCst,
            Fence::Device,
            Fence::MembarGl,
            Fence::MembarCta,
        ]
        .choose(&mut self.rng)
        .unwrap()
    }

    fn with_role(&self, pred: impl Fn(&Arg) -> bool) -> Vec<usize> {
        (0..self.spec.args.len())
            .filter(|&k| pred(&self.spec.args[k]))
            .collect()
    }

    fn a_loop(&mut self) -> Loop {
        let uniform = self.chance(0.25);
        let kind = if uniform {
            LoopKind::Uniform
        } else {
            LoopKind::Chunk
        };
        let mut l = Loop {
            kind,
            reverse: !uniform && self.chance(0.15),
            narrow: !uniform && self.chance(0.15),
            ops: Vec::new(),
            inner: None,
            barrier: LoopBarrier::None,
            sink: None,
        };
        let count = self.rng.random_range(1..=4);
        for _ in 0..count {
            if let Some(op) = self.op(false, !uniform) {
                l.ops.push(op);
            }
        }
        if self.chance(0.25) {
            let trips = self.rng.random_range(1..=6);
            let mut ops = Vec::new();
            for _ in 0..self.rng.random_range(1..=3) {
                if let Some(op) = self.op(true, true) {
                    ops.push(op);
                }
            }
            l.inner = Some(Inner { trips, ops });
        }
        if uniform {
            l.barrier = match self.rng.random_range(0..3) {
                0 => LoopBarrier::None,
                1 => LoopBarrier::Plain,
                _ if self.spec.shared_bytes.is_some() => LoopBarrier::Exchange,
                _ => LoopBarrier::Plain,
            };
        }
        if self.chance(0.3) {
            l.sink = self.own_access(false);
        }
        if self.spec.shared_bytes.is_some() && self.chance(0.5) {
            // The kernel uses its buffer.
            l.ops.push(Op::Stage);
        }
        l
    }

    fn op(&mut self, inner: bool, may_exit: bool) -> Option<Op> {
        match self.rng.random_range(0..100) {
            0..=44 => {
                let dst = self.own_access(inner)?;
                let mut srcs = Vec::new();
                for _ in 0..self.rng.random_range(0..=2) {
                    srcs.extend(self.read_access(inner));
                }
                let arith = match self.rng.random_range(0..5) {
                    0 => Arith::Add(self.rng.random()),
                    1 => Arith::Xor(self.rng.random()),
                    2 => Arith::Mul(self.rng.random()),
                    3 => Arith::Shl(self.rng.random_range(0..70)),
                    _ => Arith::LShr(self.rng.random_range(0..70)),
                };
                Some(Op::Update { dst, srcs, arith })
            }
            45..=64 => Some(Op::Reduce {
                src: self.read_access(inner)?,
            }),
            65..=77 => {
                let shared = self.with_role(|a| a.role == Role::Shared);
                let owned = self.with_role(|a| a.role == Role::Owned && a.elem.atomic_ok());
                let target = if !shared.is_empty() && (owned.is_empty() || self.chance(0.5)) {
                    let arg = *shared.choose(&mut self.rng).unwrap();
                    let index = self.any_index(arg, inner);
                    Access { arg, index }
                } else {
                    let arg = *owned.choose(&mut self.rng)?;
                    let index = self.own_index(arg, inner);
                    Access { arg, index }
                };
                let drawn = *[AtomicOp::Add, AtomicOp::Or, AtomicOp::Xor, AtomicOp::UMax]
                    .choose(&mut self.rng)
                    .unwrap();
                let op = if self.spec.args[target.arg].role == Role::Shared {
                    match self.shared_ops.iter().find(|(k, _)| *k == target.arg) {
                        Some(&(_, op)) => op,
                        None => {
                            self.shared_ops.push((target.arg, drawn));
                            drawn
                        }
                    }
                } else {
                    drawn
                };
                let global = self.chance(0.5);
                Some(Op::Atomic { target, op, global })
            }
            78..=86 => Some(Op::Fence(self.fence())),
            _ if may_exit => {
                let src = self.read_access(inner)?;
                let bits = self.rng.random_range(1..=4);
                let mask = (1u64 << bits) - 1;
                Some(Op::EarlyExit {
                    src,
                    mask,
                    value: self.rng.random::<u64>() & mask,
                })
            }
            _ => None,
        }
    }

    fn own_index(&mut self, arg: usize, inner: bool) -> Index {
        if inner && self.chance(0.6) {
            Index::InnerLinear
        } else {
            Index::Linear {
                c: self.rng.random_range(0..self.spec.args[arg].stride),
            }
        }
    }

    /// Any in-range index (for ReadOnly loads and Shared atomics).
    fn any_index(&mut self, arg: usize, inner: bool) -> Index {
        let ro = self.with_role(|a| a.role == Role::ReadOnly);
        match self.rng.random_range(0..10) {
            0..=1 => Index::Shifted {
                d: self.rng.random_range(-40..=40),
            },
            2..=3 if !ro.is_empty() => Index::Indirect {
                via: *ro.choose(&mut self.rng).unwrap(),
            },
            4..=5 if inner => Index::InnerSpread {
                d: self.rng.random_range(1..=64),
            },
            _ => self.own_index(arg, inner),
        }
    }

    /// An element the thread may store to (Owned, own index).
    fn own_access(&mut self, inner: bool) -> Option<Access> {
        let owned = self.with_role(|a| a.role == Role::Owned);
        let arg = *owned.choose(&mut self.rng)?;
        let index = self.own_index(arg, inner);
        Some(Access { arg, index })
    }

    /// An element the thread may load (ReadOnly anywhere, Owned own).
    fn read_access(&mut self, inner: bool) -> Option<Access> {
        let readable = self.with_role(|a| a.role != Role::Shared);
        let arg = *readable.choose(&mut self.rng)?;
        let index = if self.spec.args[arg].role == Role::ReadOnly {
            self.any_index(arg, inner)
        } else {
            self.own_index(arg, inner)
        };
        Some(Access { arg, index })
    }
}
