//! wc: words and lines (1 data structure in the main loop).

use super::app::{chunk, le, App, Arg, Case, Fill, Output};
use crate::inputs;

pub struct Wc;

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\n' | b'\t')
}

/// (words, lines) as the kernel counts them: a word starts at a non-space
/// after a space or at the start of the text.
pub fn reference(text: &[u8]) -> (u64, u64) {
    let mut words = 0;
    let mut prev_space = true;
    for &c in text {
        words += u64::from(prev_space && !is_space(c));
        prev_space = is_space(c);
    }
    let lines = text.iter().filter(|&&c| c == b'\n').count() as u64;
    (words, lines)
}

impl App for Wc {
    fn name(&self) -> &'static str {
        "wc"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let text = inputs::text(bytes, seed);
        let (words, lines) = reference(&text);
        Case {
            inputs: vec![text],
            // Totals are accumulated atomically: they start at zero.
            outputs: vec![Output {
                bytes: 16,
                fill: Fill::Byte(0),
            }],
            expected: vec![le(&[words, lines])],
        }
    }
    fn args(&self, case: &Case, threads: u64) -> Vec<Arg> {
        let n = case.inputs[0].len() as u64;
        vec![
            Arg::Input(0),
            Arg::Output(0),
            Arg::U64(n),
            Arg::U64(chunk(n, threads)),
        ]
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn reference_counts_words_and_lines() {
        assert_eq!(super::reference(b"a bb  c\nd\n"), (4, 2));
        assert_eq!(super::reference(b"  lead"), (1, 0));
        assert_eq!(super::reference(b""), (0, 0));
    }
}
