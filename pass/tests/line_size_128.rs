//! 128 B lines (an option: `--line-size 128`, or `--max-line-size 128` for a
//! launch to pick them): a dirty mask of 128 bits, and masks built from
//! 64-bit offsets widened to it, not truncated (a `trunc` to a wider type
//! failed the module before). Their bytes are checked by the fuzzer's modes
//! `t7-l128` and `max128`, on the CPU and on the GPU.

mod common;

use sl1_pass::Options;

fn lines(line_size: u32, max_line_size: u32) -> Options {
    Options {
        line_size,
        max_line_size,
        read_only_max_line_size: max_line_size,
        ..Options::default()
    }
}

#[test]
fn a_kernel_takes_128_byte_lines_with_a_128_bit_dirty_mask() {
    for (line, max) in [(128, 128), (32, 128)] {
        let t = common::transform_case("restrict_loop", &lines(line, max));
        let k = t.kernel("restrict_loop");
        assert!(k.applied, "{line}-{max} B: {:?}", k.reasons);
        let text = t.text("restrict_loop");
        assert!(text.contains("%sl1.out.dirty"), "{text}");
        assert!(text.contains("i128"), "{line}-{max} B: no 128-bit mask");
    }
}

/// With more than two line sizes the written structures alone size the
/// line only where every structure's line would be the smallest. Sized for
/// `out` alone, the lines of up to 128 B that a 256-thread block could give
/// it left its read-only companion `in` direct for most warps: `upper` at
/// 132x256 ran 1.82 ms, and 0.32 ms sized for both (H100, 2026-11-26,
/// `docs/results/2026-11-26-h100-max-line-128-fit.txt`).
#[test]
fn written_structures_alone_size_a_line_only_where_all_take_the_smallest() {
    let t = common::transform_case("restrict_loop", &lines(16, 128));
    let text = t.text("restrict_loop");
    let defined = |prefix: &str| {
        text.lines()
            .filter_map(|l| l.trim().strip_prefix('%'))
            .filter(|l| l.starts_with(prefix))
            .map(|l| l.split(' ').next().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    // The largest size each count of structures fits: all, and the fitted ones.
    let all = defined("sl1.line.all")
        .pop()
        .expect("a size for every structure");
    let fitted = defined("sl1.line.fitted")
        .pop()
        .expect("a size for the fitted ones");
    let pick = text
        .lines()
        .find(|l| l.trim().starts_with("%sl1.line.size = select"))
        .expect("the picked size");
    let pick_args = format!(", i32 %{fitted}, i32 %{all}");
    assert!(pick.ends_with(&pick_args), "{pick}");
    // ... on the condition that every structure's size is the smallest.
    let condition = pick
        .split_whitespace()
        .nth(4)
        .unwrap()
        .trim_end_matches(',');
    let test = text
        .lines()
        .find(|l| l.trim().starts_with(&format!("{condition} = ")))
        .expect("the condition");
    assert!(test.ends_with(&format!("icmp eq i32 %{all}, 16")), "{test}");
}
