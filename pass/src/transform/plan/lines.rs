//! The kernel's line sizes and its line buffer: the largest line size
//! where longer lines pay, the padding after each line, and the buffer's
//! bytes beside the kernel's own shared memory.

use crate::options::Options;
use crate::transform::reasons::Reason;
use crate::transform::reports::TransformReport;

use super::loops::ChosenLoop;

/// Shared memory the kernel takes itself, beside the line buffer.
#[derive(Clone, Copy, Debug)]
pub struct KernelShared {
    /// Static bytes, and the declared most of dynamic shared memory.
    pub bytes: u64,
    /// The kernel uses dynamic shared memory (`extern __shared__`).
    pub dynamic: bool,
}

/// The line sizes of one kernel: from the smallest (`Options::line_size`)
/// up to the largest, doubling.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineSizes {
    pub smallest: u32,
    /// `Options::max_line_size`, or more where longer lines pay
    /// (`kernel_line_sizes`).
    pub largest: u32,
}

impl LineSizes {
    /// Every size, from the smallest up.
    pub fn all(&self) -> Vec<u32> {
        std::iter::successors(Some(self.smallest), |s| Some(s * 2))
            .take_while(|&s| s <= self.largest)
            .collect()
    }

    /// Whether the decision picks among several sizes.
    pub fn picked(&self) -> bool {
        self.largest > self.smallest
    }
}

/// Bytes of read streams' next lines a thread keeps staged in registers at
/// most in a loop of streams: one 128 B line, 32 of the 64 registers a
/// thread of a 1024-thread block has. With four 128 B stages `soa` spilled
/// 1.7 KB (ptxas, sm_90) and ran 0.96x the build with lines up to 32 B
/// (H100, 2026-11-26).
const STAGED_STREAM_BYTES: u32 = 128;

/// The line sizes of one kernel: the largest grows where longer lines
/// pay. Loops that only read fill their lines from the stage, loaded
/// a run ahead, and a longer line makes longer runs (wc on the H100: 2.43x
/// with 64 B, 2.31x with 32 B). Loops whose every structure streams
/// (`ChosenLoop::streams`) take lines up to 128 B, as long as their read
/// streams' stages fit `STAGED_STREAM_BYTES`, where a launch's block leaves
/// room for them: the warp stages their reads and writes their lines back
/// whole (H100, 2026-11-26, against lines up to 32 B at each app's best
/// launch: upper 1.08x, wc 1.13x, affinity 1.12x, bytes_u8 1.09x; lut,
/// reading 1 B and writing 4 B an iteration, 0.95x, and saxpy, reading and
/// writing `y`, 0.96x, are no such loops).
/// `stream_line` is the kernel's `stream_line_size`.
pub(super) fn kernel_line_sizes(
    options: &Options,
    loops: &[ChosenLoop<'_>],
    stream_line: Option<u32>,
) -> LineSizes {
    let mut max = options.max_line_size;
    if loops.iter().all(|h| h.read_only_in_runs) {
        max = max.max(options.read_only_max_line_size);
    }
    if let Some(line) = stream_line {
        max = max.max(line);
    }
    LineSizes {
        smallest: options.line_size,
        largest: max,
    }
}

/// The largest line size a kernel whose every loop streams may take: up to
/// `Options::stream_max_line_size`, with the stages of the most read
/// streams of one loop within `STAGED_STREAM_BYTES`.
pub(super) fn stream_line_size(options: &Options, loops: &[ChosenLoop<'_>]) -> Option<u32> {
    let reads = loops
        .iter()
        .map(|h| h.streams)
        .collect::<Option<Vec<u32>>>()?
        .into_iter()
        .max()?;
    // The largest power of two within the stages' share (none past 128 reads).
    let staged = (STAGED_STREAM_BYTES / reads.max(1)).checked_ilog2()?;
    let line = options.stream_max_line_size.min(1 << staged);
    (line > options.max_line_size).then_some(line)
}

/// The line buffer: one line per structure and thread at the largest block,
/// each line followed by `pad` bytes, within what the budget leaves beside
/// the kernel's own shared memory; `None` (and the reason in `report`) when
/// that cannot give a warp one line each.
pub(super) fn size_buffer(
    options: &Options,
    pad: u32,
    structures: usize,
    shared: KernelShared,
    report: &mut TransformReport,
) -> Option<u64> {
    let pitch = u64::from(options.line_size + pad);
    let available = options.shared_budget.saturating_sub(shared.bytes);
    let wanted = u64::from(report.max_threads) * structures as u64 * pitch;
    let buffer = wanted.min(available) / 16 * 16;
    if buffer < 32 * pitch {
        report.reasons.push(Reason::NoRoomForLines {
            kernel_bytes: shared.bytes,
            with_dynamic: report.dynamic_shared_bytes.is_some(),
            left: available,
            budget: options.shared_budget,
        });
        return None;
    }
    Some(buffer)
}

/// Bytes after each line in shared memory, so that the threads of a warp
/// reading the same offset of their lines hit different banks: with 4 B more,
/// a 32 B line starts 9 banks after its neighbour's, and 9 is prime to the 32
/// banks (without, 8: eight threads share a bank). Lines with wider accesses
/// get that width (an aligned access must stay aligned), which spreads the
/// quarter- or half-warps that share a wavefront the same way.
pub(super) fn line_pad(widest_access: u64) -> u32 {
    widest_access.clamp(4, 16) as u32
}
