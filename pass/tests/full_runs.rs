//! Full runs: in a counted unit-stride byte loop, the run after an access at
//! the first byte of every line is unrolled once per iteration, each access
//! at a constant offset in shared memory with its structure's alias scope.
//! A structure the loop only reads or only writes moves a 4-byte word at a
//! time; one it reads and writes, a byte at a time with the alignment of its
//! offset, for LLVM to merge. Loops whose runs keep their exit tests, and
//! the option off, have none.

mod common;

use sl1_pass::Options;

/// The transformed text of `line_runs.ll`'s kernel `kernel` under `options`.
fn transformed(kernel: &str, options: &Options) -> String {
    common::transform_case("line_runs", options)
        .text(kernel)
        .to_string()
}

/// The in-place accesses of full runs: (instruction line, its offset).
fn in_place(text: &str) -> Vec<(String, i64)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some((name, rest)) = line
            .trim()
            .split_once(" = getelementptr i8, ptr addrspace(3) ")
        else {
            continue;
        };
        if !name.starts_with("%sl1.full") {
            continue;
        }
        let offset: i64 = rest.rsplit("i64 ").next().unwrap().trim().parse().unwrap();
        let user = lines[i + 1..]
            .iter()
            .find(|l| l.contains(&format!("{name},")))
            .unwrap_or_else(|| panic!("no access through {name}: {text}"));
        out.push((user.trim().to_string(), offset));
    }
    out
}

#[test]
fn a_byte_loop_moves_whole_words_in_its_full_runs() {
    let text = transformed("counted", &common::short_lines());
    assert!(text.contains("run.full0"), "{text}");
    let accesses = in_place(&text);
    assert!(!accesses.is_empty(), "{text}");
    for (access, offset) in &accesses {
        // From the first offset a 4-byte word starts at on (before it the
        // run keeps its hit calls), one access a word: `in` only read, `out`
        // only written.
        assert_eq!(offset % 4, 0, "{access} at {offset}");
        assert!(*offset >= 4, "{access} at {offset}");
        assert!(access.contains("<4 x i8>"), "{access} at {offset}");
        assert!(access.contains("align 4,"), "{access} at {offset}");
        assert!(access.contains("!alias.scope"), "{access}");
        assert!(access.contains("!noalias"), "{access}");
    }
    let count = |what: &str| accesses.iter().filter(|(a, _)| a.contains(what)).count();
    // 32 B lines: words at 4 to 28; 16 B lines: 4 to 12.
    assert_eq!(count("load <4 x i8>"), 7 + 3, "{text}");
    assert_eq!(count("store <4 x i8>"), 7 + 3, "{text}");
    // Every lane stores `c ^ 32` of its own byte: the word is one vector
    // operation on the word read, not four bytes taken out and put back.
    assert_eq!(
        text.matches("xor <4 x i8>").count(),
        7 + 3,
        "one vector xor a word: {text}"
    );
    assert!(!text.contains("insertelement <4 x i8>"), "{text}");
}

#[test]
fn lanes_multiplied_by_a_constant_are_one_byte_vector_multiply() {
    // `multiplies` stores `c * 3`: one multiply of the word's byte vector
    // (which `byte_words` does on the word), no byte taken out.
    let text = transformed("multiplies", &common::short_lines());
    assert!(text.contains("run.full0"), "{text}");
    assert!(text.contains("mul <4 x i8>"), "{text}");
    assert!(!text.contains("insertelement <4 x i8>"), "{text}");
}

#[test]
fn lanes_that_compute_what_no_byte_vector_operation_does_store_their_bytes_one_by_one() {
    // `squares` stores `c * c`: no lane-wise multiply of two words, so the
    // word is put together from the lanes' bytes.
    let text = transformed("squares", &common::short_lines());
    assert!(text.contains("run.full0"), "{text}");
    assert!(text.contains("insertelement <4 x i8>"), "{text}");
    assert!(text.contains("extractelement <4 x i8>"), "{text}");
    assert!(!text.contains("mul <4 x i8>"), "{text}");
}

#[test]
fn a_body_that_branches_reads_whole_words_and_stores_bytes() {
    let text = transformed("branches", &common::short_lines());
    assert!(text.contains("run.full0"), "{text}");
    let accesses = in_place(&text);
    let count = |what: &str| accesses.iter().filter(|(a, _)| a.contains(what)).count();
    // A word read is loaded where its first iteration starts, which every
    // later one's path passes; a word written would need each iteration's
    // value at the last one's store: those stay bytes.
    assert_eq!(count("load <4 x i8>"), 7 + 3, "{text}");
    assert_eq!(count("store <4 x i8>"), 0, "{text}");
    assert_eq!(count("store i8"), 28 + 12, "{text}");
}

#[test]
fn every_copy_that_caches_all_structures_addresses_lines_at_its_size() {
    // Lines through the decision's slot are a select against the buffer's
    // start at the picked pitch, which alias analysis cannot see apart;
    // the all-cached copies take each line at its size's constant pitch.
    let text = transformed("counted", &common::short_lines());
    let bases: Vec<&str> = text
        .lines()
        .filter_map(|l| {
            l.trim()
                .split_once(" = getelementptr i8, ptr addrspace(3) ")
        })
        .filter(|(name, _)| name.starts_with("%sl1.full"))
        .map(|(_, rest)| rest.split(',').next().unwrap().trim())
        .collect();
    assert!(!bases.is_empty(), "{text}");
    let def = |name: &str| {
        text.lines()
            .find(|l| l.trim().starts_with(&format!("{name} = ")))
            .unwrap_or_else(|| panic!("no definition of {name}: {text}"))
    };
    for base in bases {
        // `getelementptr i8, ptr addrspace(3) @buffer, i64 %offset`
        let line = def(base);
        assert!(
            line.contains("getelementptr i8, ptr addrspace(3) @"),
            "{line}"
        );
        let offset = line.rsplit("i64 ").next().unwrap().trim();
        let offset_def = def(offset);
        assert!(offset_def.contains(" mul "), "{line}\n{offset_def}");
        assert!(!offset_def.contains("select"), "{line}\n{offset_def}");
    }
}

#[test]
fn a_structure_read_and_written_moves_byte_by_byte_at_aligned_offsets() {
    let text = transformed("in_place", &common::short_lines());
    assert!(text.contains("run.full0"), "{text}");
    let accesses = in_place(&text);
    assert!(!accesses.is_empty(), "{text}");
    for (access, offset) in &accesses {
        assert!(*offset >= 4, "{access} at {offset}");
        let align = if offset % 4 == 0 { 4 } else { offset & -offset };
        assert!(
            access.contains(&format!("align {align},")),
            "{access} at {offset}"
        );
        assert!(!access.contains("x i8>"), "{access} at {offset}");
    }
    // 32 B lines: offsets 4 to 31; 16 B lines: 4 to 15; a load and a store
    // each (the store through the load's address).
    let loads = accesses
        .iter()
        .filter(|(a, _)| a.contains("load i8"))
        .count();
    let stores = text
        .lines()
        .filter(|l| l.trim().starts_with("store i8") && l.contains("%sl1.full"))
        .count();
    assert_eq!(loads, 28 + 12, "{text}");
    assert_eq!(stores, 28 + 12, "{text}");
}

#[test]
fn a_run_loop_beside_full_runs_is_not_unrolled_at_run_time() {
    // Whole lines take the full run; the run loop keeps a line's head and
    // the loop's tail, rolled (LLVM's runtime unrolling of it cost loop
    // strength reduction 39 of `upper`'s 296 ms of passes).
    // (The case's loops carry no `llvm.loop` of their own.)
    let marked = |kernel: &str, options: &Options| {
        transformed(kernel, options)
            .lines()
            .any(|l| l.trim_start().starts_with("br i1") && l.contains("!llvm.loop"))
    };
    assert!(marked("counted", &common::short_lines()));
    let off = Options {
        full_runs: false,
        ..Options::default()
    };
    assert!(!marked("counted", &off));
}

#[test]
fn runs_with_exit_tests_and_the_option_off_have_no_full_runs() {
    let off = Options {
        full_runs: false,
        ..Options::default()
    };
    for (kernel, options) in [("stops", Options::default()), ("counted", off)] {
        let text = transformed(kernel, &options);
        assert!(text.contains(".run"), "{kernel}: {text}");
        assert!(!text.contains("run.full"), "{kernel}: {text}");
        assert!(!text.contains("!alias.scope"), "{kernel}: {text}");
    }
}

#[test]
fn no_line_access_claims_more_than_the_buffer_alignment() {
    // Unpadded lines of 32 B and more lie a multiple of 32 B apart, but the
    // buffer starts 16-aligned: a 64 B line's word at offset 32 is too.
    let options = Options {
        line_size: 32,
        max_line_size: 64,
        read_only_max_line_size: 64,
        stream_max_line_size: 64,
        line_padding: false,
        ..common::short_lines()
    };
    let text = transformed("counted", &options);
    assert!(text.contains("run.full0"), "{text}");
    let shared = text.lines().filter(|l| {
        let l = l.trim_start();
        l.contains("ptr addrspace(3)") && (l.contains("= load ") || l.starts_with("store "))
    });
    let mut seen = 0;
    for line in shared {
        let Some(after) = line.split("align ").nth(1) else {
            continue;
        };
        let align: u32 = after
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no alignment in {line}"));
        assert!(align <= 16, "{line}");
        seen += 1;
    }
    assert!(seen > 0, "{text}");
}
