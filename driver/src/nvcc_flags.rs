//! The nvcc flags `sl1-nvcc` knows, how each is taken and why: the table
//! `sl1-nvcc --help` prints and docs/nvcc.md holds. A test translates each
//! row's example (`nvcc_args::translate`), so the table says what the front
//! end does.

/// How `sl1-nvcc` takes a flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handling {
    /// Passed on to the build, in the driver's words.
    Supported,
    /// Dropped, with a note on standard error.
    Ignored,
    /// An error that says why.
    Refused,
}

impl Handling {
    fn word(self) -> &'static str {
        match self {
            Handling::Supported => "supported",
            Handling::Ignored => "ignored",
            Handling::Refused => "refused",
        }
    }
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct NvccFlag {
    /// As nvcc's documentation spells it, with its other spellings.
    pub spelling: &'static str,
    /// A command line that uses it (before an input file).
    pub example: &'static [&'static str],
    pub handling: Handling,
    /// What it becomes, or why not.
    pub note: &'static str,
}

const fn flag(
    spelling: &'static str,
    example: &'static [&'static str],
    handling: Handling,
    note: &'static str,
) -> NvccFlag {
    NvccFlag {
        spelling,
        example,
        handling,
        note,
    }
}

use Handling::{Ignored, Refused, Supported};

/// Every flag the front end treats on purpose; any other is refused as
/// unknown.
pub const FLAGS: &[NvccFlag] = &[
    flag("-o FILE, --output-file", &["-o", "app"], Supported, "the output"),
    flag("-c, --compile", &["-c"], Supported, "an object (host code with its device code)"),
    flag("-ptx, --ptx", &["-ptx"], Supported, "PTX (`--emit ptx`)"),
    flag("-cubin, --cubin", &["-cubin"], Supported, "a cubin (`--emit cubin`)"),
    flag(
        "-arch=ARCH, --gpu-architecture, -code, -gencode arch=..,code=..",
        &["-gencode", "arch=compute_90,code=sm_90"],
        Supported,
        "one GPU architecture, sm_XX or sm_90a, however many ways it is named",
    ),
    flag(
        "several architectures",
        &["-gencode", "arch=compute_80,code=sm_80", "-arch=sm_90"],
        Supported,
        "one fat binary with a cubin and PTX per architecture (`--arch` repeated); S-L1 decides the same for each",
    ),
    flag("-arch=native", &["-arch=native"], Supported, "the architectures of this machine's GPUs (nvidia-smi)"),
    flag("-arch=all, -arch=all-major", &["-arch=all"], Refused, "name the architectures: sm_XX"),
    flag("-I DIR, --include-path, -isystem", &["-I", "inc"], Supported, "include path"),
    flag(
        "-MD, -MMD, -MF FILE, -MT NAME, -MP",
        &["-MD", "-MF", "a.d", "-MT", "a.o"],
        Supported,
        "a Make dependency file written with the compile (`--deps`, `--dep-file`, `--dep-target`, `--dep-phony`), as CMake's and Make's rules ask for",
    ),
    flag("-M, -MM", &["-M"], Refused, "dependencies without a compile; use -MD -MF FILE"),
    flag("-D MACRO, --define-macro", &["-DN=4"], Supported, "macro, device and host"),
    flag("-U MACRO, --undefine-macro", &["-UNDEBUG"], Supported, "undefined, device and host"),
    flag(
        "--default-stream per-thread (or legacy)",
        &["--default-stream", "per-thread"],
        Supported,
        "per-thread: CUDA_API_PER_THREAD_DEFAULT_STREAM, as nvcc defines it",
    ),
    flag("-keep", &["-keep"], Ignored, "intermediate files stay in a temporary folder; -v prints every command"),
    flag("-shared", &["-shared"], Refused, "executables and objects only: compile with -c and link the library yourself"),
    flag("-L DIR, --library-path", &["-L", "lib"], Supported, "library path of the link"),
    flag("-l LIB, --library", &["-lcurand"], Supported, "library of the link"),
    flag(
        "-Xcompiler A,B, --compiler-options",
        &["-Xcompiler", "-Wall"],
        Supported,
        "host compiler arguments: .cpp/.c sources, the host side of .cu sources, the link",
    ),
    flag("-std=c++17, --std", &["-std=c++17"], Supported, "device and host"),
    flag("-x cu", &["-x", "cu"], Supported, "the C and C++ sources after it are CUDA, compiled with S-L1 (`-x cu` of sl1-driver build)"),
    flag("-x LANGUAGE", &["-x", "c++"], Refused, "sl1-nvcc compiles CUDA; name other sources by their extension"),
    flag(
        "-O0..-O3",
        &["-O0"],
        Supported,
        "the host code's level, as in nvcc; device code stays optimised (S-L1 needs it)",
    ),
    flag("-g, --debug", &["-g"], Supported, "debug information"),
    flag("-lineinfo, --generate-line-info", &["-lineinfo"], Supported, "line tables; remarks name lines"),
    flag("-use_fast_math", &["-use_fast_math"], Supported, "-ffast-math"),
    flag("-v, --verbose", &["-v"], Supported, "every command the build runs"),
    flag("--version, -V", &["--version"], Supported, "the version"),
    flag("--help, -h", &["--help"], Supported, "this table"),
    flag("-rdc=false", &["-rdc=false"], Supported, "the default"),
    flag(
        "-rdc=true, -dc, --relocatable-device-code",
        &["-dc"],
        Refused,
        "relocatable device code is not supported: each CUDA source keeps its own device code",
    ),
    flag(
        "-G, --device-debug",
        &["-G"],
        Refused,
        "device debugging turns the optimizer off, and S-L1 with it; use -lineinfo",
    ),
    flag(
        "--expt-relaxed-constexpr, --expt-extended-lambda, --extended-lambda",
        &["--expt-extended-lambda"],
        Ignored,
        "clang's CUDA has them on",
    ),
    flag(
        "-w, -Wno-deprecated-gpu-targets, -Wno-deprecated-declarations, --no-host-device-move-forward",
        &["-Wno-deprecated-gpu-targets"],
        Ignored,
        "nvcc's own warnings and front end",
    ),
    flag(
        "-Xptxas A,B, --ptxas-options",
        &["-Xptxas", "-v"],
        Supported,
        "ptxas arguments (`--ptxas-arg`); `-v` prints each kernel's registers and shared memory after S-L1",
    ),
    flag(
        "--resource-usage, -res-usage",
        &["--resource-usage"],
        Supported,
        "ptxas -v",
    ),
    flag("-Xlinker A,B, --linker-options", &["-Xlinker", "-s"], Supported, "linker arguments, to the link alone (`--link-arg=-Wl,A`)"),
    flag(
        "-Xsl1 A,B, --sl1-options",
        &["-Xsl1", "--line-size=32,--dynamic-shared=1024"],
        Supported,
        "S-L1's own options, as `sl1-driver build` takes them (`--line-size=32`, `--dynamic-shared=N`, `--no-sl1`); not nvcc's",
    ),
    flag(
        "-ccbin PROGRAM (or DIR), --compiler-bindir",
        &["-ccbin", "g++"],
        Supported,
        "the compiler of .cpp/.c sources and of the link (`--host-compiler`; g++ with `-Xcompiler -fopenmp` gives GCC's OpenMP); CUDA sources stay clang's",
    ),
    flag(
        "-maxrregcount N, --maxrregcount",
        &["-maxrregcount", "64"],
        Supported,
        "ptxas's register limit (`--ptxas-arg=--maxrregcount=N`); ptxas keeps its own for a kernel with a declared block size, which S-L1 declares where the source gives none",
    ),
];

/// The table as `sl1-nvcc --help` prints it.
pub fn help_text() -> String {
    let width = FLAGS
        .iter()
        .map(|f| f.spelling.len())
        .max()
        .unwrap_or(0)
        .min(40);
    let mut text = String::from(
        "sl1-nvcc: nvcc's command line, built by sl1-driver build with S-L1\n\n\
         Usage: sl1-nvcc [FLAGS] FILES... (.cu, .cpp/.cc/.c, .o, .a)\n\n",
    );
    for f in FLAGS {
        text.push_str(&format!(
            "  {:<width$}  {:<9}  {}\n",
            f.spelling,
            f.handling.word(),
            f.note
        ));
    }
    text.push_str("\nAny other flag is refused. sl1-driver build --help lists the driver's own.\n");
    text
}

/// The table as docs/nvcc.md holds it (Markdown).
pub fn markdown_table() -> String {
    let mut table = String::from("| nvcc flag | sl1-nvcc | what it does here |\n|---|---|---|\n");
    for f in FLAGS {
        table.push_str(&format!(
            "| `{}` | {} | {} |\n",
            f.spelling,
            f.handling.word(),
            f.note
        ));
    }
    table
}
