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
