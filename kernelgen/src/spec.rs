//! The structured description of a generated kernel. Failures are shrunk by
//! editing this description, not the IR, so every spec that `validate`
//! accepts must print to valid, race-free IR.

use serde::{Deserialize, Serialize};

/// Element type of a pointer argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Elem {
    I8,
    I16,
    I32,
    I64,
    F32,
    F64,
    /// `<4 x i32>`: 16-byte accesses.
    V4I32,
}

impl Elem {
    pub const ALL: [Elem; 7] = [
        Elem::I8,
        Elem::I16,
        Elem::I32,
        Elem::I64,
        Elem::F32,
        Elem::F64,
        Elem::V4I32,
    ];

    /// Size (and alignment) in bytes.
    pub fn size(self) -> u64 {
        match self {
            Elem::I8 => 1,
            Elem::I16 => 2,
            Elem::I32 | Elem::F32 => 4,
            Elem::I64 | Elem::F64 => 8,
            Elem::V4I32 => 16,
        }
    }

    /// The IR type.
    pub fn ir(self) -> &'static str {
        match self {
            Elem::I8 => "i8",
            Elem::I16 => "i16",
            Elem::I32 => "i32",
            Elem::I64 => "i64",
            Elem::F32 => "float",
            Elem::F64 => "double",
            Elem::V4I32 => "<4 x i32>",
        }
    }

    /// Width of the integer with the same bits.
    pub fn bits(self) -> u32 {
        (self.size() * 8) as u32
    }

    /// `atomicrmw` integer operations need i32 or i64.
    pub fn atomic_ok(self) -> bool {
        matches!(self, Elem::I32 | Elem::I64)
    }

    /// `float` or `double`: `atomicrmw fadd/fmin/fmax`.
    pub fn is_float(self) -> bool {
        matches!(self, Elem::F32 | Elem::F64)
    }
}

/// Who may touch an argument's buffer, which is what keeps kernels free of
/// data races whatever the pass does to them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Role {
    /// Only loaded, at any in-range index (other threads' chunks included).
    ReadOnly,
    /// Each thread loads, stores and updates atomically only the elements
    /// of its own chunk (`i * stride + c`, `c < stride`): read-write or
    /// write-only, depending on the statements.
    Owned,
    /// Only `atomicrmw` (any in-range index, any thread): a histogram.
    /// Element i32 or i64 (integer operations), or float or double (`fadd`
    /// of values whose sums stay exact: see [`Fill::SmallIntegers`]).
    Shared,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arg {
    pub elem: Elem,
    pub role: Role,
    /// `noalias` (restrict). Never on an in-place pair.
    pub noalias: bool,
    /// Also `readonly` (only on noalias ReadOnly arguments).
    pub readonly_attr: bool,
    /// Elements per chunk index: thread index `i` owns elements
    /// `i * stride .. i * stride + stride`; the buffer holds `n * stride`.
    pub stride: u64,
    /// In-place aliasing: the host passes the buffer of this (earlier)
    /// argument here too. Both are Owned, without noalias, with the same
    /// element, stride, offset and alignment.
    pub alias_of: Option<usize>,
    /// An in-place twin placed this many elements after its argument
    /// (`l = d + 1`), fewer than the stride: it reads and writes only
    /// `Linear { c }` with `c + shift < stride`, the thread's own elements
    /// of the argument, so lines of the two hold overlapping bytes.
    #[serde(default)]
    pub shift: u64,
    /// Bytes from the start of its buffer at which the host points the
    /// argument (a multiple of [`Arg::align`], at most [`MAX_OFFSET`]):
    /// chunks that do not start on a cache line.
    #[serde(default)]
    pub offset: u64,
    /// The `align` every access declares, when below the element's size
    /// (`<4 x i32>` at 4 or 8, i64 at 4; never double, see
    /// [`UNDER_ALIGNED_DOUBLES`]): accesses that straddle cache lines. Never below what the address really has; never on
    /// atomic targets.
    #[serde(default)]
    pub align: Option<u64>,
    /// Its loads and stores are atomic, `monotonic` (`__atomic_load_n`,
    /// `__atomic_store_n`), beside plain ones where a loop of its own reads
    /// it. Only on naturally aligned scalars that are not Shared.
    #[serde(default)]
    pub atomic: bool,
}

impl Arg {
    /// `load` of `elem` from `p`, atomic where the argument is.
    pub fn load_text(&self, p: &str) -> String {
        let (ty, align) = (self.elem.ir(), self.align());
        if self.atomic {
            format!("load atomic {ty}, ptr {p} monotonic, align {align}")
        } else {
            format!("load {ty}, ptr {p}, align {align}")
        }
    }

    /// `store` of `value` to `p`, atomic where the argument is.
    pub fn store_text(&self, value: &str, p: &str) -> String {
        let (ty, align) = (self.elem.ir(), self.align());
        if self.atomic {
            format!("store atomic {ty} {value}, ptr {p} monotonic, align {align}")
        } else {
            format!("store {ty} {value}, ptr {p}, align {align}")
        }
    }

    /// The alignment the kernel's accesses declare.
    pub fn align(&self) -> u64 {
        self.align.unwrap_or(self.elem.size())
    }

    /// Whether accesses declare the element's natural alignment (atomics
    /// need it).
    pub fn natural(&self) -> bool {
        self.align() == self.elem.size()
    }
}

/// How the host fills a buffer before the first launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fill {
    /// Random bytes.
    Random,
    /// Each element (float or double) an integer in `-1024..=1024`, so that
    /// the exact sums `fadd` atomics build on it never round.
    SmallIntegers,
}

/// How an access picks its element (of `n * stride` in the buffer).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Index {
    /// `i * stride + c` (`c < stride`): the thread's own element.
    Linear { c: u64 },
    /// `clamp(i * stride + d, 0, n * stride - 1)`: neighbours (ReadOnly).
    Shifted { d: i64 },
    /// `zext(bits(via[i * via.stride])) urem (n * stride)`: an index loaded
    /// from a ReadOnly argument (ReadOnly and Shared targets).
    Indirect { via: usize },
    /// In an inner loop over `j`: `i * stride + j urem stride` (own).
    InnerLinear,
    /// In an inner loop: `umin(i * stride + j * d, n * stride - 1)` (ReadOnly).
    InnerSpread { d: u64 },
    /// In a window inner loop ([`Inner::window`]): `(i + j) * stride + c`
    /// (`c < stride`), the thread's own elements from `i` on.
    InnerWindow { c: u64 },
    /// Element `c` (`c < stride`) for every thread: the same address across
    /// the warp (Shared integer adds, which the device tuning makes once
    /// per warp). Only where `i < n`, so the element exists.
    Fixed { c: u64 },
    /// `umin((i - begin) * stride + c, n * stride - 1)` (`c < stride`,
    /// ReadOnly): the element of the loop's step, the same in every lane
    /// at once (a broadcast `x[j]` beside a row per thread).
    Broadcast { c: u64 },
}

impl Index {
    /// Whether the index stays in the thread's own elements.
    pub fn is_own(&self) -> bool {
        matches!(
            self,
            Index::Linear { .. } | Index::InnerLinear | Index::InnerWindow { .. }
        )
    }
    pub fn needs_inner(&self) -> bool {
        matches!(
            self,
            Index::InnerLinear | Index::InnerSpread { .. } | Index::InnerWindow { .. }
        )
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Access {
    pub arg: usize,
    pub index: Index,
}

/// Arithmetic applied to a stored value, in the destination's type (floats
/// get fadd/fmul for Add/Mul and bit operations on their bits). Never UB:
/// no nsw/nuw, shift amounts taken modulo the width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Arith {
    Add(u64),
    Xor(u64),
    Mul(u64),
    Shl(u32),
    LShr(u32),
    /// `v - lo <u width ? v op c : v`, op `add` or, with `xor`, `xor`: a
    /// range check choosing a value (`toupper`).
    InRange {
        lo: u64,
        width: u64,
        c: u64,
        xor: bool,
    },
    /// `zext (icmp pred v, c)`: a compare's 0 or 1.
    Flag {
        pred: Pred,
        c: u64,
    },
}

/// An integer compare's predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Pred {
    Eq,
    Ne,
    Ult,
    Ugt,
    Slt,
    Sgt,
}

impl Pred {
    pub fn ir(self) -> &'static str {
        match self {
            Pred::Eq => "eq",
            Pred::Ne => "ne",
            Pred::Ult => "ult",
            Pred::Ugt => "ugt",
            Pred::Slt => "slt",
            Pred::Sgt => "sgt",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AtomicOp {
    Add,
    Or,
    Xor,
    UMax,
    /// `atomicrmw fadd` (float and double). On a Shared argument the value
    /// is a small integer (float: 0 to 3, never in inner or scan loops) or
    /// a multiple of 1/16 below 4096 (double), so every order of the
    /// additions gives the same exact sum.
    FAdd,
    /// `atomicrmw fmin` / `fmax`: Owned float and double targets only.
    FMin,
    FMax,
}

impl AtomicOp {
    pub fn is_float(self) -> bool {
        matches!(self, AtomicOp::FAdd | AtomicOp::FMin | AtomicOp::FMax)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fence {
    /// `fence seq_cst`
    SeqCst,
    /// `fence syncscope("device") seq_cst` (`__threadfence`)
    Device,
    /// `call void @llvm.nvvm.membar.gl()`
    MembarGl,
    /// `call void @llvm.nvvm.membar.cta()` (`__threadfence_block`)
    MembarCta,
}

/// A statement in a loop body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    /// `dst = arith(fold(srcs))`, folded in dst's type; the result also
    /// goes into the loop's accumulator.
    Update {
        dst: Access,
        srcs: Vec<Access>,
        arith: Arith,
    },
    /// `acc = acc * 31 + bits(load src)`.
    Reduce {
        src: Access,
    },
    /// `acc += (bits(load src) & mask) == value`: a count of matching
    /// elements, whose 0s and 1s the device tuning sums narrow. With
    /// `starts`, `acc += matches(element before) && !matches(src)`, the
    /// element before's test carried from the iteration before (false in
    /// the first; in a chunk loop's own statements, elsewhere the plain
    /// count): the runs of other elements that start here, `wc`'s words.
    Tally {
        src: Access,
        mask: u64,
        value: u64,
        #[serde(default)]
        starts: bool,
    },
    /// `acc += switch (bits(load src) & 0xff) { case k: v; ... default: d }`:
    /// a `switch` whose cases only choose a value (dna's `base2`), which the
    /// device tuning makes selects. Distinct case bytes, 1 to
    /// [`MAX_CASES`] of them.
    Classify {
        src: Access,
        cases: Vec<(u8, u64)>,
        default: u64,
    },
    /// `atomicrmw op` with a value from the accumulator; on an Owned
    /// argument the old value joins the accumulator (only this thread
    /// touches that element), on a Shared one it is dropped.
    Atomic {
        target: Access,
        op: AtomicOp,
        /// Through `addrspacecast` to `ptr addrspace(1)`.
        global: bool,
    },
    Fence(Fence),
    /// Accumulator through the thread's own 8-byte slot of `@buf`.
    Stage,
    /// `break` when `(bits(load src) & mask) == value`.
    EarlyExit {
        src: Access,
        mask: u64,
        value: u64,
    },
    /// `acc = mix(&src, acc)`: a call of the module's `noinline` internal
    /// helper, which loads the element's first byte itself.
    Call {
        src: Access,
    },
}

/// A warp collective with the full mask `0xffffffff`, mixing the
/// accumulator with other lanes' values. Only where every lane of every
/// (full) warp is sure to arrive: at the end of a Uniform loop's iteration,
/// outside its `if (i < n)`, or right after a loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Collective {
    /// `llvm.nvvm.shfl.sync.{idx,bfly,down,up}.i32` of the accumulator's
    /// low 32 bits; `lane` is the source lane, the xor mask or the delta.
    Shfl { mode: ShflMode, lane: u32 },
    /// `llvm.nvvm.vote.ballot.sync` of the accumulator's bit `bit`.
    Ballot { bit: u32 },
    /// `llvm.nvvm.vote.any.sync`.
    Any { bit: u32 },
    /// `llvm.nvvm.vote.all.sync`.
    All { bit: u32 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ShflMode {
    Idx,
    Bfly,
    Down,
    Up,
}

/// A loop whose trip count depends on loaded data (grep's and wc's merged
/// loop pattern): from element `i * stride` of `src` on, up to `bound`
/// elements, until `(bits(load src[k]) & mask) == value`; the scan stops at
/// the last element of the buffer (ReadOnly) or of the thread's chunk
/// (Owned), and every index is clamped in range.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scan {
    pub src: usize,
    pub mask: u64,
    pub value: u64,
    /// Most elements scanned (1 to [`MAX_SCAN`]).
    pub bound: u64,
    /// Only from the starts of "lines": where `i * stride` is 0 or the
    /// element before it matches the delimiter (ReadOnly sources only).
    pub gated: bool,
    /// Statements in the scan's body; inner indices take the scan's counter.
    pub ops: Vec<Op>,
    /// A compare from the scan's element on, after the statements.
    #[serde(default)]
    pub matched: Option<Match>,
}

/// A loop inside a scan that goes on while elements match, as a pattern
/// compare does (grep's `text[j + m] == pat[m]`): from element `i *
/// stride + j` of `src` (a ReadOnly argument; `j` the scan's counter) on,
/// up to `bound` elements, while `(bits(src[..]) & mask) == (first + m *
/// step) & mask`; every index is clamped in range, and the count joins the
/// accumulator.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Match {
    pub src: usize,
    pub mask: u64,
    pub first: u64,
    pub step: u64,
    /// Most elements compared (1 to [`MAX_SCAN`]).
    pub bound: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LoopKind {
    /// `for i in begin..end` (end = min(begin + chunk, n)); early exits allowed.
    Chunk,
    /// `for j in 0..chunk { i = begin + j; if i < n { ops } barrier... }`:
    /// the trip count is the same in every thread, so barriers are legal.
    Uniform,
}

/// Block barrier at the end of every iteration of a Uniform loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LoopBarrier {
    None,
    /// `call void @llvm.nvvm.barrier0()`
    Plain,
    /// Store the accumulator to the own slot of `@buf`, barrier, add the next
    /// thread's slot, barrier (needs shared memory).
    Exchange,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inner {
    /// Constant trip count (at least 1); with `window`, the most.
    pub trips: u64,
    pub ops: Vec<Op>,
    /// Runs `umin(trips, end - i)` iterations, a count known only at run
    /// time (a dot product's shape: LLVM unrolls it by a factor, and the
    /// vector loads read its adjacent elements 16 B at a time), and may
    /// read the elements `i + j` ([`Index::InnerWindow`]). Chunk loops only.
    #[serde(default)]
    pub window: bool,
    /// Window loops only: when above 0, the window loop runs again in a
    /// loop around it, `umin(repeats, n)` times (a count known at run time
    /// only), each time from the accumulator the last left, mixed with the
    /// round's index: kmeans's nest, whose inner loop reads the same
    /// elements in every iteration of the loop around it (the vector loads'
    /// checks and the short twin's tests are taken out of that loop).
    #[serde(default)]
    pub repeats: u64,
    /// Window loops only: the counter runs from the chunk loop's `i` to
    /// `umin(end, i + trips)` and is the element's index itself, rather than
    /// from 0 to `umin(trips, end - i)` added to `i`: the same elements, in
    /// the shape of an inner loop whose start moves with the loop around it
    /// (what `--counted-trips` rewrites).
    #[serde(default)]
    pub from_outer: bool,
}

/// Most iterations of a window inner loop.
pub const MAX_WINDOW: u64 = 40;

/// Most rounds of the loop around a window loop ([`Inner::repeats`]).
pub const MAX_REPEATS: u64 = 6;

/// Most cases of an [`Op::Classify`].
pub const MAX_CASES: usize = 6;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Loop {
    pub kind: LoopKind,
    /// Chunk loops only: walk the chunk from its end down.
    pub reverse: bool,
    /// Chunk loops only: an i32 counter (`add nuw`) widened by zext.
    pub narrow: bool,
    pub ops: Vec<Op>,
    /// A nested loop after `ops`.
    pub inner: Option<Inner>,
    pub barrier: LoopBarrier,
    /// After the loop, a thread with a non-empty chunk stores the
    /// accumulator to its first element of this Owned access.
    pub sink: Option<Access>,
    /// A data-dependent scan after `inner`.
    #[serde(default)]
    pub scan: Option<Box<Scan>>,
    /// Uniform loops: collectives at the end of every iteration, outside
    /// the `if (i < n)` (before the barrier), which every thread reaches.
    #[serde(default)]
    pub warp: Vec<Collective>,
    /// Collectives right after the loop (every thread reaches its exit),
    /// before the sink.
    #[serde(default)]
    pub tail: Vec<Collective>,
}

impl Loop {
    /// A loop of `kind` running `ops`, with nothing else.
    pub fn of(kind: LoopKind, ops: Vec<Op>) -> Loop {
        Loop {
            kind,
            reverse: false,
            narrow: false,
            ops,
            inner: None,
            barrier: LoopBarrier::None,
            sink: None,
            scan: None,
            warp: Vec::new(),
            tail: Vec::new(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Item {
    Loop(Loop),
    /// A block barrier in straight-line code every thread reaches.
    Barrier,
    Fence(Fence),
}

/// A kernel's shared memory, where its threads' slots live.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SharedMem {
    None,
    /// Its own static buffer (`@buf` for the first kernel, `@buf_<k>` for
    /// kernel k) of `bytes` (at least [`MIN_SHARED`] so that every thread
    /// of any block has a slot of [`SLOT_BYTES`]).
    Static {
        bytes: u64,
    },
    /// `extern __shared__` memory (`@dyn`, shared by the module's kernels):
    /// a slot of `slot_bytes` (8, 16 or 32) per thread of the block; the
    /// launch gives `slot_bytes * threads per block` bytes.
    Dynamic {
        slot_bytes: u64,
    },
}

/// One `ptx_kernel` of the module.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Body {
    pub shared: SharedMem,
    /// Computes its thread index from 2-D grids and blocks (and may be
    /// launched with them); 1-D kernels only read the `.x` registers and
    /// must be launched 1-D.
    pub two_d: bool,
    pub items: Vec<Item>,
}

impl Body {
    /// Bytes between a thread's slot and the next one's.
    pub fn slot_bytes(&self) -> Option<u64> {
        match self.shared {
            SharedMem::None => None,
            SharedMem::Static { .. } => Some(SLOT_BYTES),
            SharedMem::Dynamic { slot_bytes } => Some(slot_bytes),
        }
    }

    /// Dynamic shared memory a launch of `threads` per block must give.
    pub fn dynamic_bytes(&self, threads: u64) -> u64 {
        match self.shared {
            SharedMem::Dynamic { slot_bytes } => slot_bytes * threads,
            _ => 0,
        }
    }

    pub fn loops(&self) -> impl Iterator<Item = &Loop> {
        self.items.iter().filter_map(|item| match item {
            Item::Loop(l) => Some(l),
            _ => None,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelSpec {
    /// The first kernel's name (`k<seed>`); kernel k > 0 is `<name>_<k>`.
    pub name: String,
    pub args: Vec<Arg>,
    /// 1 to [`MAX_KERNELS`] kernels with the same signature, launched one
    /// after another on the same buffers.
    pub kernels: Vec<Body>,
}

/// Why no access declares a double below its size: the plain build would
/// be wrong. NVPTX stores an under-aligned double as `st.global.b32` of
/// its halves from the double's 64-bit register, and ptxas (CUDA 13.0.88,
/// sm_90) compiles that to `F2I.U32.F64.TRUNC`, a conversion, instead of
/// the low 32 bits: 6.0 is stored as 0x4018000000000006 (H100,
/// 2026-11-25, seed 400064; `testdata/toolchain/st_b32_f64.cu`).
pub const UNDER_ALIGNED_DOUBLES: &str =
    "double accesses keep their alignment (ptxas converts an under-aligned double's halves)";

/// Bytes of a thread's slot in `@buf`.
pub const SLOT_BYTES: u64 = 8;
/// Smallest `@buf`: a slot for each of 1024 threads.
pub const MIN_SHARED: u64 = SLOT_BYTES * 1024;
/// Largest `@buf`: all the static shared memory a block gets.
pub const MAX_SHARED: u64 = 48 * 1024;
/// Most threads per block (the fuzz modes size caches for 256).
pub const MAX_THREADS: u64 = 256;
/// Most dynamic shared memory a launch gives (`--dynamic-shared 8192`).
pub const MAX_DYNAMIC: u64 = 8192;
/// Most kernels per module.
pub const MAX_KERNELS: usize = 3;
/// Largest argument offset in bytes.
pub const MAX_OFFSET: u64 = 256;
/// Longest scan.
pub const MAX_SCAN: u64 = 256;
/// Most `fadd`s on one float Shared argument in a module's loop bodies:
/// with values of at most 3, launches of at most 2^17 chunk indices
/// (threads times chunk) and at most [`MAX_KERNELS`] launches, every
/// partial sum from a start in `-1024..=1024` stays an integer below 2^24,
/// which a float holds exactly.
pub const MAX_F32_SHARED_ADDS: u64 = 40;

impl KernelSpec {
    /// Bytes the host must allocate for argument `arg` given `n`
    /// (`offset + n * stride * elem_size`). In-place pairs share one buffer.
    pub fn buffer_bytes(&self, arg: usize, n: u64) -> u64 {
        let a = &self.args[arg];
        a.offset + n * a.stride * a.elem.size()
    }

    /// Bytes from the start of its buffer at which the host points argument
    /// `arg`: its offset, and a twin's shift.
    pub fn arg_offset(&self, arg: usize) -> u64 {
        let a = &self.args[arg];
        a.offset + a.shift * a.elem.size()
    }

    /// How the host fills argument `arg`'s buffer.
    pub fn fill(&self, arg: usize) -> Fill {
        let a = &self.args[arg];
        if a.role == Role::Shared && a.elem.is_float() {
            Fill::SmallIntegers
        } else {
            Fill::Random
        }
    }

    /// The name of kernel `k` (`k<seed>`, `k<seed>_1`, ..).
    pub fn kernel_name(&self, k: usize) -> String {
        if k == 0 {
            self.name.clone()
        } else {
            format!("{}_{k}", self.name)
        }
    }

    /// Every loop of every kernel, for walking the spec.
    pub fn loops(&self) -> impl Iterator<Item = &Loop> {
        self.kernels.iter().flat_map(|b| b.loops())
    }

    /// Every loop of every kernel, mutably.
    pub(crate) fn loops_mut(&mut self) -> impl Iterator<Item = &mut Loop> {
        let items = self.kernels.iter_mut().flat_map(|b| b.items.iter_mut());
        items.filter_map(|item| match item {
            Item::Loop(l) => Some(l),
            _ => None,
        })
    }

    /// Whether a statement reads an element every lane reads at once
    /// ([`Index::Broadcast`]).
    pub fn reads_broadcast(&self) -> bool {
        self.loops().flat_map(loop_ops).any(|op| {
            op.accesses()
                .iter()
                .any(|a| matches!(a.index, Index::Broadcast { .. }))
        })
    }

    /// Whether an argument is a twin shifted into the next thread's
    /// elements: arguments that overlap on purpose.
    pub fn has_shifted_twin(&self) -> bool {
        self.args.iter().any(|a| a.shift > 0)
    }

    /// Whether the module has issue 56's shapes: a broadcast read beside
    /// an argument without noalias (the aliased group prices it), or a
    /// shifted twin (the run-time alias checks see the overlap).
    pub fn has_alias_shapes(&self) -> bool {
        (self.reads_broadcast() && self.args.iter().any(|a| !a.noalias)) || self.has_shifted_twin()
    }

    /// Whether the module has a loop that only counts bytes (`wc`'s lines:
    /// every statement a tally of a byte argument, the count stored after
    /// the loop), whose tests on a word's bytes the device tuning counts
    /// four at once.
    pub fn has_byte_counts(&self) -> bool {
        self.loops().any(|l| {
            l.kind == LoopKind::Chunk
                && l.sink.is_some()
                && l.inner.is_none()
                && !l.ops.is_empty()
                && l.ops.iter().all(
                    |op| matches!(op, Op::Tally { src, .. } if self.args[src.arg].elem == Elem::I8),
                )
        })
    }

    /// Whether the module has a byte map (`upper`'s shape: a chunk loop
    /// whose one statement is `out[i] = f(in[i])` over bytes of arguments of
    /// its own, nothing carried, no sink), whose iterations are independent:
    /// what warp ranges copy, in kernels nothing else orders memory in.
    /// Whether an argument is loaded and stored atomically.
    pub fn has_atomic_accesses(&self) -> bool {
        self.args.iter().any(|a| a.atomic)
    }

    pub fn has_byte_maps(&self) -> bool {
        let own_byte =
            |a: &Access| self.args[a.arg].elem == Elem::I8 && a.index == Index::Linear { c: 0 };
        self.loops().any(|l| {
            l.kind == LoopKind::Chunk
                && l.sink.is_none()
                && l.inner.is_none()
                && l.scan.is_none()
                && matches!(&l.ops[..], [Op::Update { dst, srcs, .. }]
                    if own_byte(dst) && srcs.len() == 1 && own_byte(&srcs[0]))
        })
    }

    /// Whether some statement calls the module's helper function.
    pub fn calls_helper(&self) -> bool {
        self.loops()
            .flat_map(loop_ops)
            .any(|op| matches!(op, Op::Call { .. }))
    }

    /// Checks the rules that keep the IR valid, in bounds and race-free.
    pub fn validate(&self) -> Result<(), String> {
        if self.args.is_empty() || self.args.len() > 6 {
            return Err(format!("{} pointer arguments", self.args.len()));
        }
        if self.kernels.is_empty() || self.kernels.len() > MAX_KERNELS {
            return Err(format!("{} kernels", self.kernels.len()));
        }
        for (k, a) in self.args.iter().enumerate() {
            if a.stride == 0 || a.stride > 8 {
                return Err(format!("arg {k}: stride {}", a.stride));
            }
            if a.role == Role::Shared && !(a.elem.atomic_ok() || a.elem.is_float()) {
                return Err(format!("arg {k}: shared {:?}", a.elem));
            }
            if a.readonly_attr && !(a.noalias && a.role == Role::ReadOnly) {
                return Err(format!("arg {k}: readonly attribute"));
            }
            let align = a.align();
            if !align.is_power_of_two() || align > a.elem.size() || a.align == Some(a.elem.size()) {
                return Err(format!("arg {k}: align {align} for {:?}", a.elem));
            }
            if a.offset % align != 0 || a.offset > MAX_OFFSET {
                return Err(format!("arg {k}: offset {} at align {align}", a.offset));
            }
            if a.elem == Elem::F64 && !a.natural() {
                return Err(format!("arg {k}: {UNDER_ALIGNED_DOUBLES}"));
            }
            if a.role == Role::Shared && !a.natural() {
                return Err(format!("arg {k}: Shared (atomics only) under-aligned"));
            }
            if a.atomic && (a.elem == Elem::V4I32 || !a.natural() || a.role == Role::Shared) {
                return Err(format!("arg {k}: atomic loads and stores of {:?}", a.elem));
            }
            if let Some(b) = a.alias_of {
                let o = self.args.get(b).ok_or(format!("arg {k}: alias of {b}"))?;
                if b >= k
                    || a.noalias
                    || o.noalias
                    || a.role != Role::Owned
                    || o.role != Role::Owned
                    || a.elem != o.elem
                    || a.stride != o.stride
                    || a.offset != o.offset
                    || a.align != o.align
                    || o.alias_of.is_some()
                    || a.shift >= a.stride
                {
                    return Err(format!("arg {k}: bad in-place pair with {b}"));
                }
            } else if a.shift != 0 {
                return Err(format!("arg {k}: shifted but not a twin"));
            }
        }
        for (b, body) in self.kernels.iter().enumerate() {
            self.check_body(body)
                .map_err(|e| format!("kernel {b}: {e}"))?;
        }
        self.check_shared_atomics()
    }

    fn check_body(&self, body: &Body) -> Result<(), String> {
        match body.shared {
            SharedMem::None => {}
            SharedMem::Static { bytes } => {
                if !(MIN_SHARED..=MAX_SHARED).contains(&bytes) {
                    return Err(format!("@buf of {bytes} B"));
                }
            }
            SharedMem::Dynamic { slot_bytes } => {
                if ![8, 16, 32].contains(&slot_bytes) || slot_bytes * MAX_THREADS > MAX_DYNAMIC {
                    return Err(format!("dynamic slots of {slot_bytes} B"));
                }
            }
        }
        let shared = body.shared != SharedMem::None;
        for l in body.loops() {
            if l.kind == LoopKind::Uniform && (l.reverse || l.narrow) {
                return Err("uniform loop reversed or narrow".into());
            }
            if l.barrier != LoopBarrier::None && l.kind != LoopKind::Uniform {
                return Err("barrier in a chunk loop".into());
            }
            if l.barrier == LoopBarrier::Exchange && !shared {
                return Err("exchange without shared memory".into());
            }
            if !l.warp.is_empty() && l.kind != LoopKind::Uniform {
                // Threads leave a chunk loop at different iterations: a
                // collective in it could wait for lanes that are gone.
                return Err("collective in a chunk loop".into());
            }
            for c in l.warp.iter().chain(&l.tail) {
                check_collective(c)?;
            }
            for op in &l.ops {
                if l.kind == LoopKind::Uniform && matches!(op, Op::EarlyExit { .. }) {
                    return Err("early exit in a uniform loop".into());
                }
                self.check_op(op, false, shared)?;
            }
            if let Some(inner) = &l.inner {
                let most = if inner.window { MAX_WINDOW } else { 16 };
                if inner.trips == 0 || inner.trips > most {
                    return Err(format!("inner trips {}", inner.trips));
                }
                if inner.window && l.kind != LoopKind::Chunk {
                    return Err("window inner loop in a uniform loop".into());
                }
                if inner.repeats > MAX_REPEATS || (inner.repeats > 0 && !inner.window) {
                    return Err(format!("{} rounds of an inner loop", inner.repeats));
                }
                for op in &inner.ops {
                    self.check_op(op, true, shared)?;
                    if !inner.window && reads_window(op) {
                        return Err(format!("{op:?}: window index outside a window loop"));
                    }
                }
            }
            if let Some(scan) = &l.scan {
                self.check_scan(scan, shared)?;
            }
            if let Some(sink) = &l.sink {
                self.check_store(sink, false)?;
                if sink.index.needs_inner() {
                    return Err("sink with an inner index".into());
                }
            }
        }
        Ok(())
    }

    fn check_scan(&self, scan: &Scan, shared: bool) -> Result<(), String> {
        let a = self.arg(scan.src)?;
        if scan.bound == 0 || scan.bound > MAX_SCAN {
            return Err(format!("scan bound {}", scan.bound));
        }
        match a.role {
            Role::ReadOnly => {}
            // A twin's chunk ends `shift` elements into the next thread's
            // elements of its argument (seed 703899 read the element the
            // next thread's sink wrote: a race in the plain build too).
            Role::Owned if a.shift > 0 => return Err(format!("scan of shifted twin {}", scan.src)),
            // From `i * stride` to the chunk's last element: its own.
            Role::Owned if !scan.gated => {}
            // The element before a chunk is another thread's.
            Role::Owned => return Err(format!("gated scan of Owned arg {}", scan.src)),
            Role::Shared => return Err(format!("scan of Shared arg {}", scan.src)),
        }
        for op in &scan.ops {
            self.check_op(op, true, shared)?;
            if reads_window(op) {
                return Err(format!("{op:?}: window index in a scan"));
            }
        }
        if let Some(m) = &scan.matched {
            if self.arg(m.src)?.role != Role::ReadOnly {
                return Err(format!("match over arg {}, not ReadOnly", m.src));
            }
            if m.bound == 0 || m.bound > MAX_SCAN {
                return Err(format!("match bound {}", m.bound));
            }
        }
        Ok(())
    }

    /// Threads meet on a Shared argument's elements only through atomics,
    /// and `or` then `xor` is not `xor` then `or`: the result would hang on
    /// the threads' order. So each Shared argument gets one operation, and
    /// float ones only `fadd`, of values whose sums are exact whatever the
    /// order: on float, only in loop bodies (bounded count), at most
    /// [`MAX_F32_SHARED_ADDS`] of them.
    fn check_shared_atomics(&self) -> Result<(), String> {
        let mut seen: Vec<(usize, AtomicOp)> = Vec::new();
        let mut f32_adds = vec![0u64; self.args.len()];
        for l in self.loops() {
            let nested = l
                .inner
                .iter()
                .flat_map(|inner| inner.ops.iter())
                .chain(l.scan.iter().flat_map(|s| s.ops.iter()));
            let all = l
                .ops
                .iter()
                .map(|op| (op, false))
                .chain(nested.map(|op| (op, true)));
            for (op, nested) in all {
                let Op::Atomic { target, op, .. } = op else {
                    continue;
                };
                let a = self.arg(target.arg)?;
                if a.role != Role::Shared {
                    continue;
                }
                if a.elem.is_float() && *op != AtomicOp::FAdd {
                    return Err(format!(
                        "arg {}: {op:?} on a float Shared argument",
                        target.arg
                    ));
                }
                if a.elem == Elem::F32 {
                    if nested {
                        return Err(format!(
                            "arg {}: float fadd on a Shared argument in a nested loop",
                            target.arg
                        ));
                    }
                    f32_adds[target.arg] += 1;
                    if f32_adds[target.arg] > MAX_F32_SHARED_ADDS {
                        return Err(format!("arg {}: too many float fadds", target.arg));
                    }
                }
                match seen.iter().find(|(k, _)| *k == target.arg) {
                    Some((_, first)) if first != op => {
                        return Err(format!(
                            "arg {}: atomics {first:?} and {op:?} on a Shared argument",
                            target.arg
                        ));
                    }
                    Some(_) => {}
                    None => seen.push((target.arg, *op)),
                }
            }
        }
        Ok(())
    }

    fn arg(&self, k: usize) -> Result<&Arg, String> {
        self.args.get(k).ok_or(format!("no arg {k}"))
    }

    fn check_index(&self, access: &Access, inner: bool) -> Result<(), String> {
        let a = self.arg(access.arg)?;
        if access.index.needs_inner() && !inner {
            return Err(format!("{access:?} outside an inner loop"));
        }
        match access.index {
            Index::Linear { c }
            | Index::InnerWindow { c }
            | Index::Fixed { c }
            | Index::Broadcast { c }
                if c >= a.stride =>
            {
                Err(format!("{access:?}: c >= stride"))
            }
            Index::Linear { c } if a.shift > 0 && c + a.shift >= a.stride => Err(format!(
                "{access:?}: past the thread's elements of its twin"
            )),
            _ if a.shift > 0 && !matches!(access.index, Index::Linear { .. }) => {
                Err(format!("{access:?}: a shifted twin takes Linear only"))
            }
            Index::Broadcast { .. } if a.role != Role::ReadOnly => {
                Err(format!("{access:?}: broadcast of a written argument"))
            }
            Index::Indirect { via } if self.arg(via)?.role != Role::ReadOnly => {
                Err(format!("{access:?}: index array not read-only"))
            }
            _ => Ok(()),
        }
    }

    fn check_load(&self, access: &Access, inner: bool) -> Result<(), String> {
        self.check_index(access, inner)?;
        match self.arg(access.arg)?.role {
            Role::ReadOnly => Ok(()),
            Role::Owned if access.index.is_own() => Ok(()),
            role => Err(format!("load {access:?} of a {role:?} argument")),
        }
    }

    fn check_store(&self, access: &Access, inner: bool) -> Result<(), String> {
        self.check_index(access, inner)?;
        match self.arg(access.arg)?.role {
            Role::Owned if access.index.is_own() => Ok(()),
            role => Err(format!("store {access:?} to a {role:?} argument")),
        }
    }

    fn check_op(&self, op: &Op, inner: bool, shared: bool) -> Result<(), String> {
        match op {
            Op::Update { dst, srcs, .. } => {
                self.check_store(dst, inner)?;
                for s in srcs {
                    self.check_load(s, inner)?;
                }
                Ok(())
            }
            Op::Reduce { src }
            | Op::Tally { src, .. }
            | Op::EarlyExit { src, .. }
            | Op::Call { src } => self.check_load(src, inner),
            Op::Classify { src, cases, .. } => {
                let mut bytes: Vec<u8> = cases.iter().map(|c| c.0).collect();
                bytes.sort_unstable();
                bytes.dedup();
                if cases.is_empty() || cases.len() > MAX_CASES || bytes.len() != cases.len() {
                    return Err(format!("{op:?}: 1 to {MAX_CASES} distinct cases"));
                }
                self.check_load(src, inner)
            }
            Op::Atomic { target, op, .. } => {
                self.check_index(target, inner)?;
                let a = self.arg(target.arg)?;
                let typed = if op.is_float() {
                    a.elem.is_float()
                } else {
                    a.elem.atomic_ok()
                };
                if !typed {
                    return Err(format!("atomic {op:?} on {:?}", a.elem));
                }
                if !a.natural() {
                    return Err(format!("atomic on under-aligned arg {}", target.arg));
                }
                match a.role {
                    Role::Shared => Ok(()),
                    Role::Owned if target.index.is_own() => Ok(()),
                    role => Err(format!("atomic {target:?} on a {role:?} argument")),
                }
            }
            Op::Stage if !shared => Err("stage without shared memory".into()),
            Op::Fence(_) | Op::Stage => Ok(()),
        }
    }
}

fn check_collective(c: &Collective) -> Result<(), String> {
    let ok = match *c {
        Collective::Shfl { lane, .. } => lane < 32,
        Collective::Ballot { bit } | Collective::Any { bit } | Collective::All { bit } => bit < 64,
    };
    if ok {
        Ok(())
    } else {
        Err(format!("{c:?}"))
    }
}

/// Every statement of a loop: its body, its inner loop's and its scan's.
pub fn loop_ops(l: &Loop) -> impl Iterator<Item = &Op> {
    l.ops
        .iter()
        .chain(l.inner.iter().flat_map(|inner| inner.ops.iter()))
        .chain(l.scan.iter().flat_map(|s| s.ops.iter()))
}

impl Loop {
    /// Every access of the loop, mutably: its statements', its inner
    /// loop's and scan's, and its sink (a scan's source is not an access).
    pub(crate) fn accesses_mut(&mut self) -> Vec<&mut Access> {
        let mut out = Vec::new();
        let inner = self.inner.iter_mut().flat_map(|i| i.ops.iter_mut());
        let scan = self.scan.iter_mut().flat_map(|s| s.ops.iter_mut());
        for op in self.ops.iter_mut().chain(inner).chain(scan) {
            match op {
                Op::Update { dst, srcs, .. } => {
                    out.push(dst);
                    out.extend(srcs.iter_mut());
                }
                Op::Reduce { src }
                | Op::Tally { src, .. }
                | Op::Classify { src, .. }
                | Op::EarlyExit { src, .. }
                | Op::Call { src } => out.push(src),
                Op::Atomic { target, .. } => out.push(target),
                Op::Fence(_) | Op::Stage => {}
            }
        }
        out.extend(self.sink.iter_mut());
        out
    }
}

/// Whether `op` indexes an element with [`Index::InnerWindow`], which only
/// a window inner loop defines.
fn reads_window(op: &Op) -> bool {
    op.accesses()
        .iter()
        .any(|a| matches!(a.index, Index::InnerWindow { .. }))
}

impl Op {
    /// The elements the statement reads, writes or updates.
    pub fn accesses(&self) -> Vec<&Access> {
        match self {
            Op::Update { dst, srcs, .. } => std::iter::once(dst).chain(srcs).collect(),
            Op::Reduce { src }
            | Op::Tally { src, .. }
            | Op::Classify { src, .. }
            | Op::EarlyExit { src, .. }
            | Op::Call { src } => vec![src],
            Op::Atomic { target, .. } => vec![target],
            Op::Fence(_) | Op::Stage => Vec::new(),
        }
    }
}
