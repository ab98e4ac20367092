//! A ptxas bug the differential runs ran into, found in PTX text so that
//! kernels that would hit it are known without a GPU.
//!
//! PTX lets a store take a register wider than its type and keeps the
//! register's low bits. ptxas (CUDA 13.0.88, sm_90) instead converts when
//! the 64-bit register was written by a double operation: `st.global.b32
//! [a], r` after `add.rn.f64 r, ..` stores `(u32) 6.0 = 6`, not the low word
//! 0 (SASS `F2I.U32.F64.TRUNC`; `testdata/toolchain/st_b32_f64.cu`). NVPTX
//! emits such stores for an under-aligned double (its two halves) and for a
//! double's bits cut to 8, 16 or 32 bits and stored or passed to a call.

use std::collections::HashSet;

/// The first narrow store of a register a double operation wrote, as
/// (line number from 1, the line), if any. Registers are followed in text
/// order (moves copy the mark, other writes clear it), which is exact for
/// straight-line code and conservative enough for NVPTX's loops, whose
/// values move between blocks through `mov`.
pub fn narrow_store_of_double(ptx: &str) -> Option<(usize, String)> {
    let mut doubles: HashSet<&str> = HashSet::new();
    for (k, line) in ptx.lines().enumerate() {
        let text = line.trim();
        let Some((opcode, operands)) = text.split_once(char::is_whitespace) else {
            continue;
        };
        let operands = operands.trim().trim_end_matches(';');
        let parts: Vec<&str> = opcode.split('.').collect();
        if parts[0] == "st" {
            let narrow = parts
                .last()
                .is_some_and(|t| matches!(&t[1..], "8" | "16" | "32"));
            let values = operands.rsplit_once("],").map_or("", |(_, v)| v);
            let hit = values
                .split(|c: char| c == ',' || c == '{' || c == '}' || c.is_whitespace())
                .any(|v| doubles.contains(v));
            if narrow && hit {
                return Some((k + 1, text.to_string()));
            }
            continue;
        }
        let Some(dst) = operands.split(',').next().map(str::trim) else {
            continue;
        };
        if !dst.starts_with("%rd") {
            continue;
        }
        let writes_double = match parts[0] {
            // cvt.<to>.<from>: the first type is the result's.
            "cvt" => parts.iter().skip(1).find(|p| is_type(p)) == Some(&"f64"),
            "setp" => false,
            "mov" => {
                let src = operands.split(',').nth(1).map(str::trim).unwrap_or("");
                parts.contains(&"f64") || doubles.contains(src)
            }
            _ => parts.contains(&"f64"),
        };
        if writes_double {
            doubles.insert(dst);
        } else {
            doubles.remove(dst);
        }
    }
    None
}

fn is_type(part: &str) -> bool {
    let (kind, bits) = part.split_at(1);
    matches!(kind, "f" | "s" | "u" | "b") && bits.parse::<u32>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_stores_of_double_results_are_found() {
        // Seed 400064's plain build (an under-aligned double's halves).
        let split = "\tadd.rn.f64 \t%rd10, %rd28, 0d4008000000000000;\n\
                     \tsetp.nan.f64 \t%p2, %rd10, %rd10;\n\
                     \tselp.f64 \t%rd11, 0d7FF8000000000000, %rd10, %p2;\n\
                     \tst.global.b32 \t[%rd26], %rd11;\n";
        assert_eq!(narrow_store_of_double(split).map(|h| h.0), Some(4));
        // Seed 2007399's: a double's low byte passed to a call.
        let param = "\tselp.f64 \t%rd42, 0d7FF8000000000000, %rd41, %p14;\n\
                     \tmov.b64 \t%rd50, %rd42;\n\
                     \tst.param.b32 \t[param0], %rd50;\n";
        assert_eq!(narrow_store_of_double(param).map(|h| h.0), Some(3));
        // Whole doubles, and registers an integer operation wrote since.
        let fine = "\tadd.rn.f64 \t%rd10, %rd28, 0d4008000000000000;\n\
                    \tst.global.b64 \t[%rd26], %rd10;\n\
                    \txor.b64 \t%rd10, %rd10, 1;\n\
                    \tst.global.b32 \t[%rd26], %rd10;\n\
                    \tcvt.rzi.s64.f64 \t%rd12, %rd11;\n\
                    \tst.global.b32 \t[%rd26], %rd12;\n";
        assert_eq!(narrow_store_of_double(fine), None);
    }
}
