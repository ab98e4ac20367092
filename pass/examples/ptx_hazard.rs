//! Prints, for each PTX file named, the first store that meets the ptxas
//! bug of `sl1_pass::ptxas_bugs` (a narrow store of a register a float
//! operation wrote), if any: `cargo run -p sl1-pass --example ptx_hazard -- a.ptx ...`.
fn main() {
    let mut hits = 0;
    for path in std::env::args().skip(1) {
        let ptx = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        if let Some((line, text)) = sl1_pass::ptxas_bugs::narrow_store_of_float(&ptx) {
            hits += 1;
            println!("{path}:{line}: {text}");
        }
    }
    eprintln!("{hits} file(s) with a narrow store of a float register");
}
