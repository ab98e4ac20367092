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
    /// Element i32 or i64.
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
    /// element and stride.
    pub alias_of: Option<usize>,
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
}

impl Index {
    /// Whether the index stays in the thread's own elements.
    pub fn is_own(&self) -> bool {
        matches!(self, Index::Linear { .. } | Index::InnerLinear)
    }
    pub fn needs_inner(&self) -> bool {
        matches!(self, Index::InnerLinear | Index::InnerSpread { .. })
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
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AtomicOp {
    Add,
    Or,
    Xor,
    UMax,
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
    /// Constant trip count (at least 1).
    pub trips: u64,
    pub ops: Vec<Op>,
}

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
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Item {
    Loop(Loop),
    /// A block barrier in straight-line code every thread reaches.
    Barrier,
    Fence(Fence),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelSpec {
    pub name: String,
    pub args: Vec<Arg>,
    /// Bytes of the kernel's own static shared buffer `@buf` (at least
    /// `SLOT_BYTES * 1024` so that every thread of any block has a slot).
    pub shared_bytes: Option<u64>,
    pub items: Vec<Item>,
}

/// Bytes of a thread's slot in `@buf`.
pub const SLOT_BYTES: u64 = 8;
/// Smallest `@buf`: a slot for each of 1024 threads.
pub const MIN_SHARED: u64 = SLOT_BYTES * 1024;
/// Largest `@buf`: all the static shared memory a block gets.
pub const MAX_SHARED: u64 = 48 * 1024;

impl KernelSpec {
    /// Bytes the host must allocate for argument `arg` given `n`
    /// (`n * stride * elem_size`). In-place pairs share one buffer.
    pub fn buffer_bytes(&self, arg: usize, n: u64) -> u64 {
        let a = &self.args[arg];
        n * a.stride * a.elem.size()
    }

    /// Every loop, for walking the spec.
    pub fn loops(&self) -> impl Iterator<Item = &Loop> {
        self.items.iter().filter_map(|item| match item {
            Item::Loop(l) => Some(l),
            _ => None,
        })
    }

    /// Checks the rules that keep the IR valid, in bounds and race-free.
    pub fn validate(&self) -> Result<(), String> {
        if self.args.is_empty() || self.args.len() > 6 {
            return Err(format!("{} pointer arguments", self.args.len()));
        }
        if let Some(bytes) = self.shared_bytes {
            if !(MIN_SHARED..=MAX_SHARED).contains(&bytes) {
                return Err(format!("@buf of {bytes} B"));
            }
        }
        for (k, a) in self.args.iter().enumerate() {
            if a.stride == 0 || a.stride > 8 {
                return Err(format!("arg {k}: stride {}", a.stride));
            }
            if a.role == Role::Shared && !a.elem.atomic_ok() {
                return Err(format!("arg {k}: shared {:?}", a.elem));
            }
            if a.readonly_attr && !(a.noalias && a.role == Role::ReadOnly) {
                return Err(format!("arg {k}: readonly attribute"));
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
                    || o.alias_of.is_some()
                {
                    return Err(format!("arg {k}: bad in-place pair with {b}"));
                }
            }
        }
        for l in self.loops() {
            if l.kind == LoopKind::Uniform && (l.reverse || l.narrow) {
                return Err("uniform loop reversed or narrow".into());
            }
            if l.barrier != LoopBarrier::None && l.kind != LoopKind::Uniform {
                return Err("barrier in a chunk loop".into());
            }
            if l.barrier == LoopBarrier::Exchange && self.shared_bytes.is_none() {
                return Err("exchange without @buf".into());
            }
            for op in &l.ops {
                if l.kind == LoopKind::Uniform && matches!(op, Op::EarlyExit { .. }) {
                    return Err("early exit in a uniform loop".into());
                }
                self.check_op(op, false)?;
            }
            if let Some(inner) = &l.inner {
                if inner.trips == 0 || inner.trips > 16 {
                    return Err(format!("inner trips {}", inner.trips));
                }
                for op in &inner.ops {
                    self.check_op(op, true)?;
                }
            }
            if let Some(sink) = &l.sink {
                self.check_store(sink, false)?;
                if sink.index.needs_inner() {
                    return Err("sink with an inner index".into());
                }
            }
        }
        self.check_shared_atomics()
    }

    /// Threads meet on a Shared argument's elements only through atomics,
    /// and `or` then `xor` is not `xor` then `or`: the result would hang on
    /// the threads' order. So each Shared argument gets one operation.
    fn check_shared_atomics(&self) -> Result<(), String> {
        let mut seen: Vec<(usize, AtomicOp)> = Vec::new();
        let ops = self.loops().flat_map(|l| {
            l.ops
                .iter()
                .chain(l.inner.iter().flat_map(|inner| inner.ops.iter()))
        });
        for op in ops {
            let Op::Atomic { target, op, .. } = op else {
                continue;
            };
            if self.arg(target.arg)?.role != Role::Shared {
                continue;
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
            Index::Linear { c } if c >= a.stride => Err(format!("{access:?}: c >= stride")),
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

    fn check_op(&self, op: &Op, inner: bool) -> Result<(), String> {
        match op {
            Op::Update { dst, srcs, .. } => {
                self.check_store(dst, inner)?;
                for s in srcs {
                    self.check_load(s, inner)?;
                }
                Ok(())
            }
            Op::Reduce { src } | Op::EarlyExit { src, .. } => self.check_load(src, inner),
            Op::Atomic { target, .. } => {
                self.check_index(target, inner)?;
                let a = self.arg(target.arg)?;
                match a.role {
                    _ if !a.elem.atomic_ok() => Err(format!("atomic on {:?}", a.elem)),
                    Role::Shared => Ok(()),
                    Role::Owned if target.index.is_own() => Ok(()),
                    role => Err(format!("atomic {target:?} on a {role:?} argument")),
                }
            }
            Op::Stage if self.shared_bytes.is_none() => Err("stage without @buf".into()),
            Op::Fence(_) | Op::Stage => Ok(()),
        }
    }
}
