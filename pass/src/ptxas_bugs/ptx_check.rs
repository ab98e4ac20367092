//! Finds, in PTX text, the stores that meet the ptxas bug of `ptxas_bugs`
//! (a narrow store of a register a floating-point operation wrote), so
//! that kernels that would hit it are known without a GPU.

use std::collections::HashMap;

/// The first store of a register a floating-point operation wrote, of
/// fewer bits than that operation's type, as (line number from 1, the
/// line), if any. Registers are followed in text order (moves copy the
/// mark, other writes clear it), which is exact for straight-line code and
/// conservative enough for NVPTX's loops, whose values move between blocks
/// through `mov`; each function's registers are its own, and every register
/// of a vector destination (`ld.v2.b64 {%rd1, %rd2}`) is written.
pub fn narrow_store_of_float(ptx: &str) -> Option<(usize, String)> {
    // Register -> bits of the float type whose operation last wrote it.
    let mut floats: HashMap<&str, u32> = HashMap::new();
    for (k, line) in ptx.lines().enumerate() {
        // Inline PTX comes in braces: `{cvt.rn.f16.f32 %rs1, %r2;}`.
        let text = line.trim().trim_start_matches('{');
        // A function's registers are its own: `%rd7` of the next is another.
        if text.starts_with(".entry")
            || text.starts_with(".func")
            || text.contains(" .entry ")
            || text.contains(" .func ")
        {
            floats.clear();
            continue;
        }
        let Some((opcode, operands)) = text.split_once(char::is_whitespace) else {
            continue;
        };
        let operands = operands.trim().trim_end_matches(';');
        let parts: Vec<&str> = opcode.split('.').collect();
        if parts[0] == "st" {
            let Some(stored) = parts.last().and_then(|t| type_bits(t)) else {
                continue;
            };
            let values = operands.rsplit_once("],").map_or("", |(_, v)| v);
            let hit = values
                .split(|c: char| c == ',' || c == '{' || c == '}' || c.is_whitespace())
                .any(|v| floats.get(v).is_some_and(|&bits| bits > stored));
            if hit {
                return Some((k + 1, text.to_string()));
            }
            continue;
        }
        // The destination (one register, or a vector's in braces) and the
        // operands after it.
        let (destination, sources) = match operands.trim_start().strip_prefix('{') {
            Some(rest) => rest.split_once('}').unwrap_or((rest, "")),
            None => operands.split_once(',').unwrap_or((operands, "")),
        };
        let sources = sources.trim_start().trim_start_matches(',');
        let destinations: Vec<&str> = destination
            .split(',')
            .map(str::trim)
            .filter(|d| d.starts_with('%'))
            .collect();
        if destinations.is_empty() {
            continue;
        }
        let written = match parts[0] {
            // cvt.<modifiers>.<to>.<from>: the first part after the
            // modifiers is the result's type (`e4m3x2`: packed bytes).
            "cvt" => parts
                .iter()
                .skip(1)
                .find(|p| !CVT_MODIFIERS.contains(p))
                .and_then(|p| float_bits(p)),
            "setp" => None,
            "mov" => {
                let src = sources.split(',').next().map(str::trim).unwrap_or("");
                parts
                    .iter()
                    .find_map(|p| float_bits(p))
                    .or_else(|| floats.get(src).copied())
            }
            _ => parts.iter().find_map(|p| float_bits(p)),
        };
        for dst in destinations {
            match written {
                Some(bits) => floats.insert(dst, bits),
                None => floats.remove(dst),
            };
        }
    }
    None
}

/// The rounding, saturation and other modifiers `cvt` takes before its
/// types.
const CVT_MODIFIERS: [&str; 15] = [
    "rn",
    "rz",
    "rm",
    "rp",
    "rna",
    "rs",
    "rni",
    "rzi",
    "rmi",
    "rpi",
    "sat",
    "satfinite",
    "relu",
    "ftz",
    "approx",
];

/// Bits of a PTX type suffix (`b32`, `f64`, `u8`...), if it is one.
fn type_bits(part: &str) -> Option<u32> {
    let digits = part.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    let kind = &part[..part.len() - digits.len()];
    matches!(kind, "f" | "s" | "u" | "b" | "bf")
        .then(|| digits.parse().ok())
        .flatten()
}

/// Bits of a floating-point PTX type suffix (`f16`, `bf16`, `f32`, `f64`).
fn float_bits(part: &str) -> Option<u32> {
    (part.starts_with('f') || part.starts_with("bf"))
        .then(|| type_bits(part))
        .flatten()
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
        assert_eq!(narrow_store_of_float(split).map(|h| h.0), Some(4));
        // Seed 2007399's: a double's low byte passed to a call.
        let param = "\tselp.f64 \t%rd42, 0d7FF8000000000000, %rd41, %p14;\n\
                     \tmov.b64 \t%rd50, %rd42;\n\
                     \tst.param.b32 \t[param0], %rd50;\n";
        assert_eq!(narrow_store_of_float(param).map(|h| h.0), Some(3));
        // Whole doubles, and registers an integer operation wrote since.
        let fine = "\tadd.rn.f64 \t%rd10, %rd28, 0d4008000000000000;\n\
                    \tst.global.b64 \t[%rd26], %rd10;\n\
                    \txor.b64 \t%rd10, %rd10, 1;\n\
                    \tst.global.b32 \t[%rd26], %rd10;\n\
                    \tcvt.rzi.s64.f64 \t%rd12, %rd11;\n\
                    \tst.global.b32 \t[%rd26], %rd12;\n";
        assert_eq!(narrow_store_of_float(fine), None);
    }

    #[test]
    fn registers_written_since_by_vector_loads_or_of_other_functions_are_not_floats() {
        // Seed 174150's default build (H100, 2026-11-27): a vector load
        // wrote the register after the double's add.
        let vector = "\tadd.rn.f64 \t%rd87, %rd130, 0d4008000000000000;\n\
                      \tld.global.v2.b64 \t{%rd87, %rd88}, [%rd9+32];\n\
                      \tst.shared.b8 \t[%rd86+5], %rd87;\n";
        assert_eq!(narrow_store_of_float(vector), None);
        // Seed 172771's paper build: the add is the first kernel's.
        let kernels = ".visible .entry k1(\n\
                       \tadd.rn.f64 \t%rd87, %rd86, %rd86;\n\
                       }\n\
                       .visible .entry k1_1(\n\
                       \tst.global.b32 \t[%rd65], %rd87;\n";
        assert_eq!(narrow_store_of_float(kernels), None);
        // Within one function the mark stays, and moves out of a vector.
        let unpacked = ".visible .entry k(\n\
                        \tadd.rn.f64 \t%rd87, %rd86, %rd86;\n\
                        \tmov.b64 \t{%r1, %r2}, %rd87;\n\
                        \tst.global.b8 \t[%rd65], %r1;\n";
        assert_eq!(narrow_store_of_float(unpacked).map(|h| h.0), Some(4));
    }

    #[test]
    fn narrow_stores_of_float_results_are_found() {
        // Seed 105364's plain build: a float's low byte stored.
        let byte = "\tadd.rn.f32 \t%r13, %r11, %r12;\n\
                    \tadd.rn.f32 \t%r14, %r13, 0f3FE00000;\n\
                    \tst.global.b8 \t[%rd26], %r14;\n";
        assert_eq!(narrow_store_of_float(byte).map(|h| h.0), Some(3));
        let half = "\tmul.rn.f32 \t%r3, %r1, %r2;\n\
                    \tmov.b32 \t%r4, %r3;\n\
                    \tst.global.b16 \t[%rd2], %r4;\n";
        assert_eq!(narrow_store_of_float(half).map(|h| h.0), Some(3));
        // Whole floats, floats converted, and an integer operation's result.
        let fine = "\tadd.rn.f32 \t%r14, %r13, 0f3FE00000;\n\
                    \tst.global.b32 \t[%rd26], %r14;\n\
                    \tcvt.rzi.u32.f32 \t%r15, %r14;\n\
                    \tst.global.b8 \t[%rd26], %r15;\n\
                    \txor.b32 \t%r14, %r14, 7;\n\
                    \tst.global.b8 \t[%rd26], %r14;\n";
        assert_eq!(narrow_store_of_float(fine), None);
    }

    #[test]
    fn packed_conversions_to_bytes_are_integers() {
        // HeCBench f8cast: two floats packed into two fp8 bytes.
        let fp8 = "\tld.global.nc.b32 \t%r6, [%rd2];\n\
                   \t{cvt.rn.satfinite.e4m3x2.f32 %rs1, %r7, %r6;}\n\
                   \tst.global.b8 \t[%rd1], %rs1;\n";
        assert_eq!(narrow_store_of_float(fp8), None);
        let half = "\tcvt.rn.f16.f32 \t%rs1, %r6;\n\
                    \tst.global.b8 \t[%rd1], %rs1;\n";
        assert_eq!(narrow_store_of_float(half).map(|h| h.0), Some(2));
    }
}
