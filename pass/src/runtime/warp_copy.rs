//! Line copies a warp makes together. Each thread's line lies in its own
//! chunk of memory, so 32 threads copying their 32 B lines with 16 B
//! accesses send 32 requests per instruction, each for half a sector. When
//! the whole warp misses at once (line runs keep the lanes in step: a run
//! ends where a line ends), the lanes instead take the warp's lines piece by
//! piece, neighbouring lanes the neighbouring 16 B of one line, so that each
//! request covers whole sectors: half the requests for 32 B lines, a quarter
//! for 64 B. Owners pass their line addresses by shuffles; warp barriers
//! order the shared-memory accesses of the lanes around the copy.

use inkwell::basic_block::BasicBlock;
use inkwell::builder::Builder;
use inkwell::values::{FunctionValue, IntValue, PointerValue};
use inkwell::IntPredicate;

use super::base::{BuildResult, LineCopy, Runtime};

/// The smallest line moved a warp at a time: two 16 B pieces make a sector.
pub(super) const SMALLEST_WARP_LINE: u32 = 32;
/// Bytes each lane moves per step: the widest access sm_90 has.
pub(super) const PIECE: u32 = 16;
const WARP: u32 = 32;
pub(super) const FULL_MASK: u64 = 0xffff_ffff;

impl<'ctx> Runtime<'ctx, '_> {
    /// Whether lines can be large enough, and move in 16 B pieces, for warp
    /// copies to be built at all.
    pub(super) fn warp_copies_possible(&self) -> bool {
        self.warp_copies && self.min_line % PIECE == 0 && self.max_line >= SMALLEST_WARP_LINE
    }

    /// Branches to `together` when the line is at least `smallest` bytes
    /// (the line size is the same in the whole block) and every lane of the
    /// warp is here, else to `alone`. The size is tested first, so that
    /// where it is a constant below `smallest` nothing of the warp path
    /// stays.
    pub(super) fn branch_on_whole_warp(
        &self,
        f: FunctionValue<'ctx>,
        b: &Builder<'ctx>,
        (bytes, smallest): (IntValue<'ctx>, u32),
        (together, alone): (BasicBlock<'ctx>, BasicBlock<'ctx>),
    ) -> BuildResult<()> {
        let smallest = self.i64().const_int(u64::from(smallest), false);
        let big = b.build_int_compare(IntPredicate::UGE, bytes, smallest, "")?;
        let lanes = self.ctx.append_basic_block(f, "warp.lanes");
        b.build_conditional_branch(big, lanes, alone)?;
        b.position_at_end(lanes);
        let active = self.nvvm_call(b, "llvm.nvvm.activemask", &[])?;
        let all = b.build_int_compare(
            IntPredicate::EQ,
            active,
            self.i32().const_int(FULL_MASK, false),
            "sl1.all.lanes",
        )?;
        b.build_conditional_branch(all, together, alone)?;
        Ok(())
    }

    /// The whole warp copies its lines (each lane's `copy`): in step `q`, lane
    /// `l` moves piece `(32 q + l) mod P` of the line of lane `(32 q + l) /
    /// P`, where P is the number of 16 B pieces in a line; a line of P
    /// pieces takes P steps.
    pub(super) fn warp_copy(
        &self,
        f: FunctionValue<'ctx>,
        b: &Builder<'ctx>,
        copy: LineCopy<'ctx>,
    ) -> BuildResult<()> {
        self.warp_barrier(b)?;
        let addr = self.shuffled_addr(b, copy.addr)?;
        let shared = b.build_ptr_to_int(copy.line, self.i32(), "")?;
        self.each_step(f, b, copy.bytes, |_, owner, off| {
            let global = self.global_at(b, b.build_int_add(addr(owner)?, off, "")?)?;
            let shared = self.owner_line(b, shared, owner, off)?;
            let shared = (shared, PIECE.min(self.shared_line_align()));
            self.copy_word(b, self.v4i32(), shared, (global, PIECE), copy.to_shared)
        })?;
        self.warp_barrier(b)
    }

    /// Builds the steps of a warp copy of lines of `bytes` bytes: `step(q,
    /// owner, offset)` for the piece the lane moves in step `q`, whose line
    /// is that of lane `owner`, at byte `offset` in it. Steps beyond a
    /// line's pieces are skipped (the line size is the same in the block).
    pub(super) fn each_step(
        &self,
        f: FunctionValue<'ctx>,
        b: &Builder<'ctx>,
        bytes: IntValue<'ctx>,
        mut step: impl FnMut(usize, IntValue<'ctx>, IntValue<'ctx>) -> BuildResult<()>,
    ) -> BuildResult<()> {
        let i32t = self.i32();
        let i64t = self.i64();
        let done = self.ctx.append_basic_block(f, "warp.steps.done");
        let lane = self.nvvm_call(b, "llvm.nvvm.read.ptx.sreg.laneid", &[])?;
        let bytes32 = b.build_int_truncate(bytes, i32t, "")?;
        let pieces = b.build_right_shift(bytes32, i32t.const_int(4, false), false, "pieces")?;
        let piece_bits = self.count_trailing_zeros(b, pieces, "")?;
        let piece_mask = b.build_int_sub(pieces, i32t.const_int(1, false), "")?;
        for q in 0..self.max_line / PIECE {
            if q >= SMALLEST_WARP_LINE / PIECE {
                let q = i32t.const_int(u64::from(q), false);
                self.continue_if_below(f, b, (q, pieces), done, "warp.step")?;
            }
            let piece = b.build_int_add(lane, i32t.const_int(u64::from(q * WARP), false), "")?;
            let owner = b.build_right_shift(piece, piece_bits, false, "owner")?;
            let part = b.build_and(piece, piece_mask, "part")?;
            let off = b.build_int_mul(
                b.build_int_z_extend(part, i64t, "")?,
                i64t.const_int(u64::from(PIECE), false),
                "",
            )?;
            step(q as usize, owner, off)?;
        }
        b.build_unconditional_branch(done)?;
        b.position_at_end(done);
        Ok(())
    }

    /// The lanes' values of a 64-bit address, as a function giving the one
    /// of a lane (two shuffles each time).
    #[allow(clippy::type_complexity)]
    pub(super) fn shuffled_addr<'b>(
        &'b self,
        b: &'b Builder<'ctx>,
        addr: IntValue<'ctx>,
    ) -> BuildResult<impl Fn(IntValue<'ctx>) -> BuildResult<IntValue<'ctx>> + 'b> {
        let i32t = self.i32();
        let i64t = self.i64();
        let lo = b.build_int_truncate(addr, i32t, "")?;
        let hi = b.build_int_truncate(
            b.build_right_shift(addr, i64t.const_int(32, false), false, "")?,
            i32t,
            "",
        )?;
        Ok(move |owner| {
            let lo = self.shuffle(b, lo, owner)?;
            let hi = self.shuffle(b, hi, owner)?;
            b.build_or(
                b.build_left_shift(
                    b.build_int_z_extend(hi, i64t, "")?,
                    i64t.const_int(32, false),
                    "",
                )?,
                b.build_int_z_extend(lo, i64t, "")?,
                "",
            )
        })
    }

    /// Byte `off` of the shared-memory line of lane `owner` (`shared`: each
    /// lane's line as an integer).
    pub(super) fn owner_line(
        &self,
        b: &Builder<'ctx>,
        shared: IntValue<'ctx>,
        owner: IntValue<'ctx>,
        off: IntValue<'ctx>,
    ) -> BuildResult<PointerValue<'ctx>> {
        let theirs = self.shuffle(b, shared, owner)?;
        let theirs = b.build_int_to_ptr(theirs, self.shared_ptr(), "")?;
        self.shared_at(b, theirs, off)
    }

    /// `shfl.sync.idx` over the whole warp: `value` of lane `from`.
    fn shuffle(
        &self,
        b: &Builder<'ctx>,
        value: IntValue<'ctx>,
        from: IntValue<'ctx>,
    ) -> BuildResult<IntValue<'ctx>> {
        let i32t = self.i32();
        let all = i32t.const_int(FULL_MASK, false);
        let clamp = i32t.const_int(u64::from(WARP - 1), false);
        self.nvvm_call(b, "llvm.nvvm.shfl.sync.idx.i32", &[all, value, from, clamp])
    }

    /// `bar.warp.sync` over the whole warp: the lanes' shared-memory
    /// accesses before it happen before those after it.
    pub(super) fn warp_barrier(&self, b: &Builder<'ctx>) -> BuildResult<()> {
        let f = self.intrinsic("llvm.nvvm.bar.warp.sync", &[]);
        b.build_call(f, &[self.i32().const_int(FULL_MASK, false).into()], "")?;
        Ok(())
    }

    /// Calls an NVVM intrinsic that returns an i32.
    pub(super) fn nvvm_call(
        &self,
        b: &Builder<'ctx>,
        name: &str,
        args: &[IntValue<'ctx>],
    ) -> BuildResult<IntValue<'ctx>> {
        let f = self.intrinsic(name, &[]);
        let args: Vec<_> = args.iter().map(|a| (*a).into()).collect();
        let r = b.build_call(f, &args, "")?;
        Ok(r.try_as_basic_value()
            .basic()
            .expect("the intrinsic returns a value")
            .into_int_value())
    }
}
