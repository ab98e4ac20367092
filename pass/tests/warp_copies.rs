//! Lines of 32 B and more move a warp at a time when the whole warp copies
//! at once: the copy is guarded by the warp's active mask, passes the owners'
//! line addresses by shuffles and is fenced by warp barriers; each thread
//! still copies its own line when lanes are missing. 16 B lines, and
//! `warp_copies: false`, keep the thread copies alone.

mod common;

use sl1_pass::Options;

/// The transformed text of `restrict_loop.ll`'s kernel under `options`,
/// without warp ranges (whose check has shuffles and a mask of its own).
fn transformed(options: &Options) -> String {
    let options = Options {
        warp_ranges: false,
        ..options.clone()
    };
    let t = common::transform_case("restrict_loop", &options);
    let kernel = &t.report.kernels[0];
    assert!(
        !kernel.transform.loops_sliced.is_empty(),
        "{:?}",
        kernel.transform
    );
    t.text(&kernel.name).to_string()
}

fn count(text: &str, what: &str) -> usize {
    text.matches(what).count()
}

#[test]
fn lines_of_32_bytes_move_a_warp_at_a_time_when_the_whole_warp_misses() {
    let text = transformed(&common::short_lines());
    // Each copy is entered on a full mask: as many compares as guards
    // (the other active masks are the lane test's, one per tested
    // structure).
    let guards =
        count(&text, "call i32 @llvm.nvvm.activemask()") - count(&text, "%sl1.lanes.neighbour =");
    assert!(guards >= 1, "{text}");
    assert_eq!(count(&text, "%sl1.all.lanes"), 2 * guards, "{text}");
    // Three shuffles (address halves, shared line) per 16 B piece, two
    // pieces or more per line; a barrier before and after each copy.
    let shuffles = count(&text, "@llvm.nvvm.shfl.sync.idx.i32(i32 -1,");
    let barriers = count(&text, "call void @llvm.nvvm.bar.warp.sync(i32 -1)");
    assert!(shuffles >= 3 * 2 * guards, "{text}");
    assert_eq!(shuffles % 3, 0, "{text}");
    assert_eq!(barriers, 2 * guards, "{text}");
    // The thread copy stays beside it.
    assert!(text.contains("thread.copy"), "{text}");
}

#[test]
fn sixteen_byte_lines_and_the_option_off_keep_thread_copies() {
    let sixteen = Options {
        max_line_size: 16,
        read_only_max_line_size: 16,
        stream_max_line_size: 16,
        ..Options::default()
    };
    let off = Options {
        warp_copies: false,
        ..Options::default()
    };
    for options in [sixteen, off] {
        let text = transformed(&options);
        for warp_op in ["sl1.all.lanes", "shfl.sync", "bar.warp.sync"] {
            assert!(!text.contains(warp_op), "{warp_op}: {text}");
        }
        assert!(text.contains("load <4 x i32>"), "{text}");
    }
}

/// Options with fixed lines of `bytes` bytes.
fn fixed_lines(bytes: u32) -> Options {
    Options {
        line_size: bytes,
        max_line_size: bytes,
        read_only_max_line_size: bytes,
        stream_max_line_size: bytes,
        ..Options::default()
    }
}

#[test]
fn read_streams_of_128_byte_lines_are_staged_by_the_whole_warp() {
    let text = transformed(&fixed_lines(128));
    // The stage loads the warp's lines together and marks its tag; the
    // fill takes such stages only when every lane's stage is one (a vote),
    // writing each piece into its owner's line between warp barriers.
    // (Names carry the inliner's suffix.)
    assert!(text.contains("%sl1.warp.staged.i = select"), "{text}");
    assert!(
        text.contains("@llvm.nvvm.vote.ballot.sync(i32 -1,"),
        "{text}"
    );
    assert!(text.contains("%sl1.own.staged.i = icmp eq"), "{text}");
    assert_eq!(
        text.matches("call void @llvm.nvvm.bar.warp.sync(i32 -1)")
            .count()
            % 2,
        0,
        "{text}"
    );
    // Lanes whose own line was not the one staged still copy it alone.
    assert!(text.contains("own.copy"), "{text}");
}

#[test]
fn lines_below_128_bytes_and_the_option_off_stage_each_thread_alone() {
    let off = Options {
        warp_copies: false,
        ..fixed_lines(128)
    };
    for options in [fixed_lines(64), common::short_lines(), off] {
        let text = transformed(&options);
        for warp_stage in ["sl1.warp.staged", "vote.ballot.sync", "sl1.own.staged"] {
            assert!(!text.contains(warp_stage), "{warp_stage}: {text}");
        }
        // The stage is still there, each thread loading its own line.
        assert!(text.contains("sl1.stage.tag"), "{text}");
    }
}
