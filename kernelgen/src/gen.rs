//! Drawing a random `KernelSpec` from a seed. Every choice respects the
//! roles of `spec::Role`, so what is drawn is valid by construction (the
//! tests check it with `KernelSpec::validate`).
//!
//! Seven streams: `rng` draws what the first generator drew, in the same
//! order, `x` every later feature (offsets and under-aligned accesses,
//! more kernels, 2-D and dynamic shared memory, collectives, float atomics,
//! scans, helper calls), `y` the byte maps and pattern compares, and `z`
//! the window inner loops, tallies, adds to one element and switches, each
//! drawn after the ones before, `w` the loops of rounds around window
//! loops, `v` broadcast reads and shifted twins, `u` window loops
//! counted from the chunk loop's index, `t` loops that count bytes, and `s`
//! arguments loaded and stored atomically. A
//! seed none of whose new features
//! is drawn gives the same kernel as before, so seeds in reports and tests
//! keep their meaning.

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::spec::*;

/// The spec for `seed` (the same on every machine: ChaCha8).
pub fn spec(seed: u64) -> KernelSpec {
    let mut g = Gen {
        rng: ChaCha8Rng::seed_from_u64(seed),
        x: ChaCha8Rng::seed_from_u64(seed ^ 0x5EED_F0E7_u64.rotate_left(32)),
        y: ChaCha8Rng::seed_from_u64(seed ^ 0xB17E_3A95_u64.rotate_left(17)),
        z: ChaCha8Rng::seed_from_u64(seed ^ 0x71D0_C0DE_u64.rotate_left(41)),
        w: ChaCha8Rng::seed_from_u64(seed ^ 0x02E9_EA75_u64.rotate_left(23)),
        v: ChaCha8Rng::seed_from_u64(seed ^ 0xA11A_5ED0_u64.rotate_left(11)),
        u: ChaCha8Rng::seed_from_u64(seed ^ 0xC0A7_7E11_u64.rotate_left(53)),
        t: ChaCha8Rng::seed_from_u64(seed ^ 0xB17E_C0DE_u64.rotate_left(7)),
        s: ChaCha8Rng::seed_from_u64(seed ^ 0xA7_0A1C_u64.rotate_left(29)),
        spec: KernelSpec {
            name: format!("k{seed}"),
            args: Vec::new(),
            kernels: Vec::new(),
        },
        shared: SharedMem::None,
        shared_ops: Vec::new(),
        f32_adds: 0,
    };
    g.args();
    g.misalign();
    let kernels = match g.x.random_range(0..100) {
        0..=81 => 1,
        82..=93 => 2,
        _ => 3,
    };
    for _ in 0..kernels {
        let body = g.body();
        g.spec.kernels.push(body);
    }
    g.byte_map();
    g.window_loops();
    g.counts();
    g.switches();
    g.window_rounds();
    g.broadcast_reads();
    g.shifted_twins();
    g.windows_from_outer();
    g.byte_counts();
    g.atomic_accesses();
    g.spec
}

/// The byte argument a loop of its own reads (a byte map's, a byte
/// count's), pushed onto `args`, `noalias` four times in five (then
/// `readonly` half the time), drawn from `rng`: its index and whether it is
/// `noalias` (the loop's other argument follows suit).
fn own_byte_source(args: &mut Vec<Arg>, rng: &mut ChaCha8Rng) -> (usize, bool) {
    let noalias = rng.random_bool(0.8);
    args.push(Arg {
        readonly_attr: noalias && rng.random_bool(0.5),
        ..own_arg(Elem::I8, Role::ReadOnly, noalias)
    });
    (args.len() - 1, noalias)
}

/// An argument a loop of its own reads or writes, element by element (a
/// byte map's, a byte count's): one element per index, no offsets.
fn own_arg(elem: Elem, role: Role, noalias: bool) -> Arg {
    Arg {
        elem,
        role,
        noalias,
        readonly_attr: false,
        stride: 1,
        alias_of: None,
        shift: 0,
        offset: 0,
        align: None,
        atomic: false,
    }
}

struct Gen {
    rng: ChaCha8Rng,
    /// The stream of the features added later.
    x: ChaCha8Rng,
    /// The stream of the features added after `x`'s (byte maps), drawn
    /// once the rest is: a seed that draws none keeps its kernel.
    y: ChaCha8Rng,
    /// The stream of the window inner loops, tallies, adds to one element
    /// and switches, drawn last.
    z: ChaCha8Rng,
    /// The stream of the loops around window loops, drawn after `z`'s.
    w: ChaCha8Rng,
    /// The stream of broadcast reads and shifted twins, drawn after `w`'s.
    v: ChaCha8Rng,
    /// The stream of window loops counted from the chunk loop's index,
    /// drawn after `v`'s.
    u: ChaCha8Rng,
    /// The stream of loops that count bytes, drawn after `u`'s.
    t: ChaCha8Rng,
    /// The stream of atomic loads and stores, drawn last.
    s: ChaCha8Rng,
    spec: KernelSpec,
    /// The shared memory of the kernel being drawn.
    shared: SharedMem,
    /// The one atomic operation each Shared argument gets, once drawn:
    /// different operations on one element do not commute.
    shared_ops: Vec<(usize, AtomicOp)>,
    /// `fadd`s drawn on float Shared arguments (bounded for exactness).
    f32_adds: u64,
}

impl Gen {
    fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p)
    }

    /// A chance from the stream of the later features.
    fn xchance(&mut self, p: f64) -> bool {
        self.x.random_bool(p)
    }

    /// One kernel: its shared memory, shape and loops.
    fn body(&mut self) -> Body {
        let mut shared = SharedMem::None;
        if self.rng.random_bool(0.2) {
            // Mostly large: the kernel leaves S-L1 little or no room.
            let bytes = if self.rng.random_bool(0.7) {
                self.rng.random_range(40 * 1024..=MAX_SHARED)
            } else {
                self.rng.random_range(MIN_SHARED..=MAX_SHARED)
            };
            shared = SharedMem::Static {
                bytes: bytes / 16 * 16,
            };
        } else if self.xchance(0.15) {
            shared = SharedMem::Dynamic {
                slot_bytes: *[8, 16, 32].choose(&mut self.x).unwrap(),
            };
        }
        self.shared = shared;
        let two_d = self.xchance(0.2);
        let mut items = Vec::new();
        // Mostly small kernels: many of them test more than a few big ones.
        let loops = *[1, 1, 1, 2, 2, 3].choose(&mut self.rng).unwrap();
        for _ in 0..loops {
            if self.rng.random_bool(0.15) {
                let item = if self.rng.random_bool(0.5) {
                    Item::Barrier
                } else {
                    Item::Fence(self.fence())
                };
                items.push(item);
            }
            let l = self.a_loop();
            items.push(Item::Loop(l));
        }
        Body {
            shared,
            two_d,
            items,
        }
    }

    /// Sometimes, in a chunk loop without an inner loop, a window inner
    /// loop (`Inner::window`) folding the thread's next elements of one or
    /// two readable arguments: a dot product's shape, which LLVM unrolls by
    /// a factor and the vector loads read 16 B at a time.
    fn window_loops(&mut self) {
        let readable = self.with_role(|a| a.role != Role::Shared);
        if readable.is_empty() {
            return;
        }
        for slot in self.loop_slots() {
            let l = self.loop_at(slot);
            let eligible = l.kind == LoopKind::Chunk && l.inner.is_none();
            if !eligible || !self.z.random_bool(0.15) {
                continue;
            }
            let trips = self.z.random_range(2..=MAX_WINDOW);
            let mut ops = Vec::new();
            for _ in 0..self.z.random_range(1..=2) {
                let src = self.late_access(&readable, |c| Index::InnerWindow { c });
                ops.push(Op::Reduce { src });
            }
            self.loop_at(slot).inner = Some(Inner {
                trips,
                ops,
                window: true,
                repeats: 0,
                from_outer: false,
            });
        }
    }

    /// Sometimes a window loop counts from the chunk loop's index
    /// (`Inner::from_outer`): the same elements, in the loop shape whose
    /// start moves with the loop around it.
    fn windows_from_outer(&mut self) {
        for slot in self.loop_slots() {
            let window = matches!(&self.loop_at(slot).inner, Some(inner) if inner.window);
            if !window || !self.u.random_bool(0.5) {
                continue;
            }
            if let Some(inner) = &mut self.loop_at(slot).inner {
                inner.from_outer = true;
            }
        }
    }

    /// Sometimes, around a window inner loop, a loop that runs it again a
    /// few times (`Inner::repeats`): kmeans's nest.
    fn window_rounds(&mut self) {
        for slot in self.loop_slots() {
            let window = matches!(&self.loop_at(slot).inner, Some(inner) if inner.window);
            if !window || !self.w.random_bool(0.5) {
                continue;
            }
            let repeats = self.w.random_range(2..=MAX_REPEATS);
            if let Some(inner) = &mut self.loop_at(slot).inner {
                inner.repeats = repeats;
            }
        }
    }

    /// Broadcast reads (the `v` stream): in some loops, a ReadOnly argument
    /// that only the loop's own statements read there takes, at every read,
    /// the element of the loop's step, the same in every lane (`x[j]`
    /// beside a row per thread), where the arguments may alias or not.
    fn broadcast_reads(&mut self) {
        let args = &self.spec.args;
        let read_only: Vec<bool> = args.iter().map(|a| a.role == Role::ReadOnly).collect();
        let strides: Vec<u64> = args.iter().map(|a| a.stride).collect();
        for slot in self.loop_slots() {
            if !self.v.random_bool(0.35) {
                continue;
            }
            let l = self.loop_at(slot);
            let own = l.ops.iter().map(|op| op.accesses().len()).sum::<usize>();
            let everywhere = l.accesses_mut();
            let (mine, deeper) = everywhere.split_at(own.min(everywhere.len()));
            let mut candidates: Vec<usize> = mine
                .iter()
                .map(|a| a.arg)
                .filter(|&k| read_only[k] && !deeper.iter().any(|a| a.arg == k))
                .collect();
            candidates.sort_unstable();
            candidates.dedup();
            let Some(&arg) = candidates.choose(&mut self.v) else {
                continue;
            };
            let c = self.v.random_range(0..strides[arg]);
            let before = self.spec.clone();
            let l = self.loop_at(slot);
            for access in l.accesses_mut().into_iter().filter(|a| a.arg == arg) {
                access.index = Index::Broadcast { c };
            }
            if self.spec.validate().is_err() {
                self.spec = before;
            }
        }
    }

    /// Shifted twins (the `v` stream): an in-place twin of an argument of
    /// stride 2 or more placed elements after it (`l = d + 1`), so that the
    /// lines of the two hold overlapping bytes; its accesses move to the
    /// elements of the thread's that the shift leaves.
    fn shifted_twins(&mut self) {
        for k in 0..self.spec.args.len() {
            let a = &self.spec.args[k];
            if a.alias_of.is_none() || a.stride < 2 || !self.v.random_bool(0.6) {
                continue;
            }
            let shift = self.v.random_range(1..a.stride);
            let room = a.stride - shift;
            let before = self.spec.clone();
            self.spec.args[k].shift = shift;
            for l in self.spec.loops_mut() {
                for access in l.accesses_mut().into_iter().filter(|x| x.arg == k) {
                    if let Index::Linear { c } = &mut access.index {
                        *c %= room;
                    }
                }
            }
            if self.spec.validate().is_err() {
                self.spec = before;
            }
        }
    }

    /// An element of one of `among` for the late features (the `z` stream):
    /// the argument, then a column within its stride, placed by `index`.
    fn late_access(&mut self, among: &[usize], index: fn(u64) -> Index) -> Access {
        let arg = *among.choose(&mut self.z).unwrap();
        let c = self.z.random_range(0..self.spec.args[arg].stride);
        Access {
            arg,
            index: index(c),
        }
    }

    /// Where each loop of the spec is, (kernel, item), in order.
    fn loop_slots(&self) -> Vec<(usize, usize)> {
        let kernels = self.spec.kernels.iter().enumerate();
        kernels
            .flat_map(|(k, body)| {
                let items = body.items.iter().enumerate();
                items.filter_map(move |(i, item)| matches!(item, Item::Loop(_)).then_some((k, i)))
            })
            .collect()
    }

    /// The loop at `slot` (from `loop_slots`).
    fn loop_at(&mut self, (kernel, item): (usize, usize)) -> &mut Loop {
        match &mut self.spec.kernels[kernel].items[item] {
            Item::Loop(l) => l,
            _ => unreachable!("loop_slots lists loops only"),
        }
    }

    /// Sometimes, at the end of a loop's body, two or three tallies of
    /// matching elements (a count whose 0s and 1s the device tuning sums
    /// narrow), and an integer add to one element of a Shared argument by
    /// every thread (which the device tuning makes once per warp), on
    /// arguments whose only atomic operation is an add.
    fn counts(&mut self) {
        let readable = self.with_role(|a| a.role != Role::Shared);
        let adds: Vec<usize> = (0..self.spec.args.len())
            .filter(|&k| {
                let a = &self.spec.args[k];
                let others = self.spec.loops().flat_map(loop_ops).any(|op| {
                    matches!(op, Op::Atomic { target, op, .. }
                            if target.arg == k && *op != AtomicOp::Add)
                });
                a.role == Role::Shared
                    && a.elem.atomic_ok()
                    && !a.elem.is_float()
                    && a.natural()
                    && !others
            })
            .collect();
        for slot in self.loop_slots() {
            let mut ops = Vec::new();
            if !readable.is_empty() && self.z.random_bool(0.12) {
                for _ in 0..self.z.random_range(2..=3) {
                    let src = self.late_access(&readable, |c| Index::Linear { c });
                    let mask = *[0xff, 0x3, 0x1, 0xf0].choose(&mut self.z).unwrap();
                    let value = self.z.random_range(0..=mask);
                    ops.push(Op::Tally {
                        src,
                        mask,
                        value,
                        starts: false,
                    });
                }
            }
            if !adds.is_empty() && self.z.random_bool(0.1) {
                let target = self.late_access(&adds, |c| Index::Fixed { c });
                ops.push(Op::Atomic {
                    target,
                    op: AtomicOp::Add,
                    global: self.z.random_bool(0.3),
                });
            }
            self.loop_at(slot).ops.extend(ops);
        }
    }

    /// Sometimes, at the end of a loop's body, a `switch` on an element's
    /// low byte whose cases only choose a value (dna's `base2`: what the
    /// device tuning makes selects). Drawn after the tallies and adds.
    fn switches(&mut self) {
        let readable = self.with_role(|a| a.role != Role::Shared);
        if readable.is_empty() {
            return;
        }
        for slot in self.loop_slots() {
            if !self.z.random_bool(0.1) {
                continue;
            }
            let src = self.late_access(&readable, |c| Index::Linear { c });
            let mut bytes: Vec<u8> = b"ACGTN\n #".to_vec();
            bytes.extend((0..3).map(|_| self.z.random::<u8>()));
            bytes.sort_unstable();
            bytes.dedup();
            let count = self.z.random_range(1..=MAX_CASES.min(bytes.len()));
            let chosen: Vec<u8> = bytes.choose_multiple(&mut self.z, count).copied().collect();
            let cases = chosen
                .into_iter()
                .map(|b| (b, self.z.random_range(0..8)))
                .collect();
            let op = Op::Classify {
                src,
                cases,
                default: self.z.random_range(0..8),
            };
            self.loop_at(slot).ops.push(op);
        }
    }

    /// Sometimes a loop mapping bytes to bytes, `out[i] = f(in[i])` over
    /// two arguments of its own (`upper`'s shape): what full runs compute
    /// a word at a time and the device tuning does on 32-bit words.
    fn byte_map(&mut self) {
        if self.spec.args.len() > 4 || !self.y.random_bool(0.08) {
            return;
        }
        let (src, noalias) = own_byte_source(&mut self.spec.args, &mut self.y);
        self.spec.args.push(own_arg(Elem::I8, Role::Owned, noalias));
        let arith = self.byte_arith();
        let map = Loop::of(
            LoopKind::Chunk,
            vec![Op::Update {
                dst: Access {
                    arg: src + 1,
                    index: Index::Linear { c: 0 },
                },
                srcs: vec![Access {
                    arg: src,
                    index: Index::Linear { c: 0 },
                }],
                arith,
            }],
        );
        let kernel = self.y.random_range(0..self.spec.kernels.len());
        let items = &mut self.spec.kernels[kernel].items;
        let at = self.y.random_range(0..=items.len());
        items.insert(at, Item::Loop(map));
    }

    /// Sometimes arguments whose loads and stores are atomic, monotonic
    /// (`__atomic_load_n` and `__atomic_store_n` in CUDA code, which S-L1
    /// leaves direct, evicting the line that holds their address), the
    /// naturally aligned scalars that only atomic adds do not already take.
    fn atomic_accesses(&mut self) {
        if !self.s.random_bool(0.15) {
            return;
        }
        for k in 0..self.spec.args.len() {
            let a = &self.spec.args[k];
            let eligible = a.elem != Elem::V4I32 && a.natural() && a.role != Role::Shared;
            if eligible && self.s.random_bool(0.5) {
                self.spec.args[k].atomic = true;
            }
        }
    }

    /// Sometimes a loop that only counts bytes of an argument of its own,
    /// `acc += (in[i] & mask) == value` once to three times an iteration
    /// (`wc`'s lines), or where the byte before matches and this one does
    /// not (`wc`'s words), the count stored after the loop: the same test
    /// on the four bytes of a word, which the device tuning counts four at
    /// once.
    fn byte_counts(&mut self) {
        if self.spec.args.len() > 4 || !self.t.random_bool(0.08) {
            return;
        }
        let (src, noalias) = own_byte_source(&mut self.spec.args, &mut self.t);
        let counts = *[Elem::I64, Elem::I32].choose(&mut self.t).unwrap();
        self.spec.args.push(own_arg(counts, Role::Owned, noalias));
        let at = |c| Access {
            arg: src,
            index: Index::Linear { c },
        };
        let ops = (0..self.t.random_range(1..=3))
            .map(|_| {
                let (mask, value) = match self.t.random_range(0..4) {
                    0 => (0xff, u64::from(b'\n')),
                    1 => (0xff, u64::from(b' ')),
                    // A letter of either case.
                    2 => (0xdf, u64::from(self.t.random_range(b'A'..=b'Z'))),
                    _ => {
                        let mask = *[0xff, 0x3, 0x1, 0xf0].choose(&mut self.t).unwrap();
                        (mask, self.t.random_range(0..=mask))
                    }
                };
                Op::Tally {
                    src: at(0),
                    mask,
                    value,
                    starts: self.t.random_bool(0.4),
                }
            })
            .collect();
        let mut count = Loop::of(LoopKind::Chunk, ops);
        count.sink = Some(Access {
            arg: src + 1,
            index: Index::Linear { c: 0 },
        });
        let kernel = self.t.random_range(0..self.spec.kernels.len());
        let items = &mut self.spec.kernels[kernel].items;
        let at = self.t.random_range(0..=items.len());
        items.insert(at, Item::Loop(count));
    }

    /// What a byte map computes: a range check that adds or toggles (half
    /// of them toggling one bit over the whole range, where the add is a
    /// xor: `toupper`), a compare's 0 or 1, or one operation (an add, a xor
    /// or a multiply).
    fn byte_arith(&mut self) -> Arith {
        let y = &mut self.y;
        match y.random_range(0..8) {
            0..=1 => {
                // Bit `b` the same over [lo, lo + width): adding or
                // subtracting it toggles it.
                let b = y.random_range(0..8);
                let block = 1u64 << b;
                let set = y.random_bool(0.5);
                let base = y.random_range(0..(256 / (2 * block))) * 2 * block
                    + if set { block } else { 0 };
                let r = y.random_range(0..block);
                Arith::InRange {
                    lo: base + r,
                    width: y.random_range(1..=block - r),
                    c: if set { 256 - block } else { block },
                    xor: false,
                }
            }
            2..=3 => Arith::InRange {
                lo: y.random_range(0..256),
                width: y.random_range(1..=96),
                c: y.random_range(0..256),
                xor: y.random_bool(0.5),
            },
            4..=5 => Arith::Flag {
                pred: *[
                    Pred::Eq,
                    Pred::Ne,
                    Pred::Ult,
                    Pred::Ugt,
                    Pred::Slt,
                    Pred::Sgt,
                ]
                .choose(y)
                .unwrap(),
                c: y.random_range(0..256),
            },
            6 => Arith::Add(y.random_range(0..256)),
            _ => {
                let c = y.random_range(0..256);
                // Half of them multiply (`in * c`, which `byte_words` does
                // on words), drawn last: maps of the other kinds keep their
                // draws.
                if y.random_bool(0.5) {
                    Arith::Mul(c)
                } else {
                    Arith::Xor(c)
                }
            }
        }
    }

    /// Sometimes a pattern compare inside a scan (drawn from `y`): over a
    /// ReadOnly argument, bits few enough that compares often go on.
    fn a_match(&mut self) -> Option<Match> {
        if !self.y.random_bool(0.5) {
            return None;
        }
        let readable = self.with_role(|a| a.role == Role::ReadOnly);
        let src = *readable.choose(&mut self.y)?;
        let bits = self.y.random_range(1..=3);
        Some(Match {
            src,
            mask: (1u64 << bits) - 1,
            first: self.y.random_range(0..8),
            step: self.y.random_range(0..4),
            bound: *[2, 4, 8, 16].choose(&mut self.y).unwrap(),
        })
    }

    /// Offsets into the buffers, and accesses declared below their size.
    fn misalign(&mut self) {
        for k in 0..self.spec.args.len() {
            if let Some(b) = self.spec.args[k].alias_of {
                // An in-place pair points at the same element.
                let (offset, align) = (self.spec.args[b].offset, self.spec.args[b].align);
                self.spec.args[k].offset = offset;
                self.spec.args[k].align = align;
                continue;
            }
            if !self.xchance(0.15) {
                continue;
            }
            let a = &self.spec.args[k];
            let size = a.elem.size();
            // Atomic-only arguments keep their natural alignment.
            let under: &[u64] = match a.elem {
                _ if a.role == Role::Shared => &[],
                Elem::V4I32 => &[4, 8],
                // Not doubles: NVPTX splits an under-aligned double store
                // into `st.b32` of its halves, and ptxas (CUDA 13.0)
                // converts the double to an integer there instead of
                // storing its bits (spec::UNDER_ALIGNED_DOUBLES).
                Elem::I64 => &[4],
                _ => &[],
            };
            let align = if !under.is_empty() && self.xchance(0.6) {
                Some(*under.choose(&mut self.x).unwrap())
            } else {
                None
            };
            let unit = align.unwrap_or(size);
            let most = (64 / unit).max(1);
            let offset = unit * self.x.random_range(1..=most);
            let a = &mut self.spec.args[k];
            a.align = align;
            a.offset = offset;
        }
    }

    fn args(&mut self) {
        let count = self.rng.random_range(1..=6);
        for _ in 0..count {
            let role = match self.rng.random_range(0..10) {
                0..=3 => Role::ReadOnly,
                4..=8 => Role::Owned,
                _ => Role::Shared,
            };
            let mut elem = if role == Role::Shared {
                *[Elem::I32, Elem::I64].choose(&mut self.rng).unwrap()
            } else {
                *Elem::ALL.choose(&mut self.rng).unwrap()
            };
            if role == Role::Shared && self.xchance(0.25) {
                // Float histograms (`fadd` of exact values).
                elem = *[Elem::F32, Elem::F64].choose(&mut self.x).unwrap();
            }
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
                shift: 0,
                offset: 0,
                align: None,
                atomic: false,
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
            reverse: !uniform && self.chance(0.15),
            narrow: !uniform && self.chance(0.15),
            ..Loop::of(kind, Vec::new())
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
            l.inner = Some(Inner {
                trips,
                ops,
                window: false,
                repeats: 0,
                from_outer: false,
            });
        }
        if self.xchance(0.12) {
            l.scan = self.scan().map(Box::new);
        }
        let shared = self.shared != SharedMem::None;
        if uniform {
            l.barrier = match self.rng.random_range(0..3) {
                0 => LoopBarrier::None,
                1 => LoopBarrier::Plain,
                _ if shared => LoopBarrier::Exchange,
                _ => LoopBarrier::Plain,
            };
            if self.xchance(0.25) {
                for _ in 0..self.x.random_range(1..=2) {
                    let c = self.collective();
                    l.warp.push(c);
                }
            }
        }
        if self.chance(0.3) {
            l.sink = self.own_access(false);
        }
        if l.sink.is_some() && self.xchance(0.15) {
            for _ in 0..self.x.random_range(1..=2) {
                let c = self.collective();
                l.tail.push(c);
            }
        }
        if shared && self.chance(0.5) {
            // The kernel uses its buffer.
            l.ops.push(Op::Stage);
        }
        l
    }

    fn collective(&mut self) -> Collective {
        let x = &mut self.x;
        match x.random_range(0..7) {
            0 => Collective::Shfl {
                mode: ShflMode::Idx,
                lane: x.random_range(0..32),
            },
            1 => Collective::Shfl {
                mode: ShflMode::Bfly,
                lane: 1 << x.random_range(0..5),
            },
            2 => Collective::Shfl {
                mode: ShflMode::Down,
                lane: x.random_range(1..32),
            },
            3 => Collective::Shfl {
                mode: ShflMode::Up,
                lane: x.random_range(1..32),
            },
            4 => Collective::Ballot {
                bit: x.random_range(0..64),
            },
            5 => Collective::Any {
                bit: x.random_range(0..64),
            },
            _ => Collective::All {
                bit: x.random_range(0..64),
            },
        }
    }

    /// A scan until a delimiter, over a ReadOnly buffer or the thread's
    /// own elements.
    fn scan(&mut self) -> Option<Scan> {
        let readable = self.with_role(|a| a.role != Role::Shared);
        let src = *readable.choose(&mut self.x)?;
        let read_only = self.spec.args[src].role == Role::ReadOnly;
        let bits = self.x.random_range(1..=8);
        let mask = (1u64 << bits) - 1;
        let value = self.x.random::<u64>() & mask;
        let bound = *[4, 8, 16, 32, 64, MAX_SCAN].choose(&mut self.x).unwrap();
        let gated = read_only && self.xchance(0.5);
        let mut ops = Vec::new();
        for _ in 0..self.x.random_range(0..=2) {
            if let Some(op) = self.op(true, true) {
                ops.push(op);
            }
        }
        let matched = self.a_match();
        Some(Scan {
            src,
            mask,
            value,
            bound,
            gated,
            ops,
            matched,
        })
    }

    fn op(&mut self, inner: bool, may_exit: bool) -> Option<Op> {
        if self.xchance(0.04) {
            return Some(Op::Call {
                src: self.read_access(inner)?,
            });
        }
        if self.xchance(0.06) {
            if let Some(op) = self.float_atomic(inner) {
                return Some(op);
            }
        }
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
                let shared = self.with_role(|a| a.role == Role::Shared && a.elem.atomic_ok());
                let owned =
                    self.with_role(|a| a.role == Role::Owned && a.elem.atomic_ok() && a.natural());
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

    /// `fadd`, `fmin` or `fmax` on an Owned float element of the thread's,
    /// or `fadd` on a float Shared argument.
    fn float_atomic(&mut self, inner: bool) -> Option<Op> {
        let bounded = self.f32_adds < MAX_F32_SHARED_ADDS;
        let targets = self.with_role(|a| {
            a.elem.is_float()
                && a.natural()
                && match a.role {
                    Role::Owned => true,
                    // Float sums stay exact only for a bounded count.
                    Role::Shared => a.elem == Elem::F64 || (!inner && bounded),
                    Role::ReadOnly => false,
                }
        });
        let arg = *targets.choose(&mut self.x)?;
        let (index, op) = if self.spec.args[arg].role == Role::Shared {
            if self.spec.args[arg].elem == Elem::F32 {
                self.f32_adds += 1;
            }
            let index = match self.x.random_range(0..3) {
                0 => Index::Linear {
                    c: self.x.random_range(0..self.spec.args[arg].stride),
                },
                _ => self.any_index(arg, inner),
            };
            (index, AtomicOp::FAdd)
        } else {
            let op = *[
                AtomicOp::FAdd,
                AtomicOp::FAdd,
                AtomicOp::FMin,
                AtomicOp::FMax,
            ]
            .choose(&mut self.x)
            .unwrap();
            (self.own_index(arg, inner), op)
        };
        Some(Op::Atomic {
            target: Access { arg, index },
            op,
            global: self.xchance(0.5),
        })
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
