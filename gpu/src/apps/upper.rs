//! upper: text to upper case (2 data structures).

use super::app::{chunk, App, Arg, Case, Fill, Output, POISON};
use crate::inputs;

pub struct Upper;

pub fn reference(text: &[u8]) -> Vec<u8> {
    text.iter().map(|c| c.to_ascii_uppercase()).collect()
}

impl App for Upper {
    fn name(&self) -> &'static str {
        "upper"
    }
    fn case(&self, bytes: usize, seed: u64) -> Case {
        let text = inputs::text(bytes, seed);
        Case {
            outputs: vec![Output {
                bytes: text.len(),
                fill: Fill::Byte(POISON),
            }],
            expected: vec![reference(&text)],
            inputs: vec![text],
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
    fn reference_uppercases_letters_only() {
        assert_eq!(super::reference(b"ab, Cd!\nz"), b"AB, CD!\nZ");
    }
}
