//! The kinds the report names: how a kernel uses a structure, what an
//! access does, where in the source something is.

use serde::{Deserialize, Serialize};

/// How a kernel uses a data structure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Only loads.
    ReadOnly,
    /// At least one store, atomic or memset/memcpy destination.
    ReadWrite,
    /// Never accessed by the kernel itself.
    Unused,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AccessKind {
    Load,
    Store,
    /// An atomic load (`__atomic_load_n`): left direct, as the other atomics.
    AtomicLoad,
    /// An atomic store (`__atomic_store_n`).
    AtomicStore,
    AtomicRmw,
    CmpXchg,
    /// The source range of `llvm.memcpy`/`llvm.memmove`.
    RangeRead,
    /// The destination range of `llvm.memcpy`/`llvm.memmove`/`llvm.memset`.
    RangeWrite,
}

impl AccessKind {
    pub fn writes(self) -> bool {
        !matches!(
            self,
            AccessKind::Load | AccessKind::AtomicLoad | AccessKind::RangeRead
        )
    }
    pub fn is_atomic(self) -> bool {
        matches!(
            self,
            AccessKind::AtomicLoad
                | AccessKind::AtomicStore
                | AccessKind::AtomicRmw
                | AccessKind::CmpXchg
        )
    }
    /// Whether the address is the second operand (stores), not the first.
    pub fn address_is_second(self) -> bool {
        matches!(self, AccessKind::Store | AccessKind::AtomicStore)
    }
}

/// Where in the source an instruction came from (its debug location).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceLocation {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

impl std::fmt::Display for SourceLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}
