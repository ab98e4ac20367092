//! Printing a `KernelSpec` as NVPTX LLVM IR text, in the style of clang's
//! device output after SROA (SSA values, phis, `ptx_kernel`), which is what
//! the pass sees inside clang.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::spec::{
    Access, Arith, AtomicOp, Body, Collective, Elem, Fence, Index, Item, KernelSpec, Loop,
    LoopBarrier, LoopKind, Match, Op, Role, Scan, SharedMem, ShflMode,
};

pub const TRIPLE: &str = "nvptx64-nvidia-cuda";
pub const DATALAYOUT: &str = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64";

/// The module as LLVM IR text (its `ptx_kernel` functions, the helper they
/// call, declarations and shared memory). The spec is assumed valid
/// (`KernelSpec::validate`).
pub fn to_ir(spec: &KernelSpec) -> String {
    let mut decls = BTreeSet::new();
    let mut bodies = Vec::new();
    for (k, body) in spec.kernels.iter().enumerate() {
        let mut e = Emitter {
            spec,
            kernel: body,
            name: spec.kernel_name(k),
            shared_global: shared_global(k),
            body: String::new(),
            decls,
            next: 0,
            block: "entry".into(),
            acc: "0".into(),
            i: String::new(),
            j: None,
            j_from_outer: false,
            exits: Vec::new(),
            carried: None,
        };
        e.kernel();
        decls = e.decls;
        bodies.push(e.body);
    }
    let mut out = String::new();
    let _ = writeln!(out, "; S-L1 generated kernel `{}`", spec.name);
    let _ = writeln!(out, "target datalayout = \"{DATALAYOUT}\"");
    let _ = writeln!(out, "target triple = \"{TRIPLE}\"\n");
    let mut globals = false;
    for (k, body) in spec.kernels.iter().enumerate() {
        if let SharedMem::Static { bytes } = body.shared {
            let _ = writeln!(
                out,
                "{} = internal addrspace(3) global [{bytes} x i8] undef, align 16",
                shared_global(k)
            );
            globals = true;
        }
    }
    if spec
        .kernels
        .iter()
        .any(|b| matches!(b.shared, SharedMem::Dynamic { .. }))
    {
        let _ = writeln!(
            out,
            "{DYNAMIC} = external addrspace(3) global [0 x i8], align 16"
        );
        globals = true;
    }
    if globals {
        out.push('\n');
    }
    out.push_str(&bodies.join("\n"));
    if spec.calls_helper() {
        let _ = write!(
            out,
            "\ndefine internal i64 @{}(ptr %p, i64 %acc) noinline {{\nentry:\n  \
             %b = load i8, ptr %p, align 1\n  %z = zext i8 %b to i64\n  \
             %m = mul i64 %acc, 131\n  %r = xor i64 %m, %z\n  ret i64 %r\n}}\n",
            helper_name(spec)
        );
    }
    for d in &decls {
        let _ = writeln!(out, "\ndeclare {d}");
    }
    out
}

/// `extern __shared__` memory, shared by the module's kernels.
const DYNAMIC: &str = "@dyn";

/// The static shared buffer of kernel `k`.
fn shared_global(k: usize) -> String {
    if k == 0 {
        "@buf".into()
    } else {
        format!("@buf_{k}")
    }
}

fn helper_name(spec: &KernelSpec) -> String {
    format!("{}_mix", spec.name)
}

struct Emitter<'a> {
    spec: &'a KernelSpec,
    kernel: &'a Body,
    name: String,
    shared_global: String,
    body: String,
    decls: BTreeSet<&'static str>,
    next: usize,
    /// The block instructions go to now.
    block: String,
    /// The accumulator's current value (i64).
    acc: String,
    /// The chunk index of the current loop (i64).
    i: String,
    /// The inner loop's (or scan's) counter (i64).
    j: Option<String>,
    /// The counter is the element index itself (`Inner::from_outer`).
    j_from_outer: bool,
    /// Per enclosing loop: its exit block, and (block, acc) of each early
    /// exit to it.
    exits: Vec<(String, Vec<(String, String)>)>,
    /// In a chunk loop's own statements: the values carried to its next
    /// iteration (a run-start tally's test), each its header phi and its
    /// value on the back edge; None elsewhere.
    carried: Option<Vec<(String, String)>>,
}

impl Emitter<'_> {
    fn fresh(&mut self, hint: &str) -> String {
        format!("%{}", self.label(hint))
    }

    fn label(&mut self, hint: &str) -> String {
        self.next += 1;
        // A hint that ends in a digit is kept apart from the number: `s1`
        // then 81 and `s` then 181 would both name `s181`.
        let apart = if hint.ends_with(|c: char| c.is_ascii_digit()) {
            "_"
        } else {
            ""
        };
        format!("{hint}{apart}{}", self.next)
    }

    fn line(&mut self, text: &str) {
        self.body.push_str("  ");
        self.body.push_str(text);
        self.body.push('\n');
    }

    /// `%x = text`, returning `%x`.
    fn val(&mut self, hint: &str, text: &str) -> String {
        let v = self.fresh(hint);
        self.line(&format!("{v} = {text}"));
        v
    }

    fn start(&mut self, label: &str) {
        let _ = writeln!(self.body, "\n{label}:");
        self.block = label.to_string();
    }

    fn sreg(&mut self, which: &str) -> String {
        self.sreg_dim(which, "x")
    }

    fn sreg_dim(&mut self, which: &str, dim: &str) -> String {
        let decl = match (which, dim) {
            ("tid", "x") => "i32 @llvm.nvvm.read.ptx.sreg.tid.x()",
            ("tid", _) => "i32 @llvm.nvvm.read.ptx.sreg.tid.y()",
            ("ntid", "x") => "i32 @llvm.nvvm.read.ptx.sreg.ntid.x()",
            ("ntid", _) => "i32 @llvm.nvvm.read.ptx.sreg.ntid.y()",
            ("ctaid", "x") => "i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()",
            ("ctaid", _) => "i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()",
            _ => "i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()",
        };
        self.decls.insert(decl);
        let hint = if dim == "x" {
            which.to_string()
        } else {
            format!("{which}{dim}")
        };
        self.val(
            &hint,
            &format!("call i32 @llvm.nvvm.read.ptx.sreg.{which}.{dim}()"),
        )
    }

    fn kernel(&mut self) {
        let spec = self.spec;
        let mut params = Vec::new();
        for (k, a) in spec.args.iter().enumerate() {
            let mut p = "ptr".to_string();
            if a.noalias {
                p.push_str(" noalias");
            }
            if a.readonly_attr {
                p.push_str(" readonly");
            }
            params.push(format!("{p} %a{k}"));
        }
        params.push("i64 %n".into());
        params.push("i64 %chunk".into());
        let _ = writeln!(
            self.body,
            "define ptx_kernel void @{}({}) {{\nentry:",
            self.name,
            params.join(", ")
        );
        // The thread's index in its block (its slot) and in the grid.
        let (slot, block_size, gtid) = if self.kernel.two_d {
            let tid = self.sreg("tid");
            let tidy = self.sreg_dim("tid", "y");
            let ntid = self.sreg("ntid");
            let ntidy = self.sreg_dim("ntid", "y");
            let ctaid = self.sreg("ctaid");
            let ctaidy = self.sreg_dim("ctaid", "y");
            let nctaid = self.sreg("nctaid");
            let row = self.val("row", &format!("mul i32 {ctaidy}, {nctaid}"));
            let bid = self.val("bid", &format!("add i32 {row}, {ctaid}"));
            let bsz = self.val("bsz", &format!("mul i32 {ntid}, {ntidy}"));
            let ty = self.val("ty", &format!("mul i32 {tidy}, {ntid}"));
            let lin = self.val("lin", &format!("add i32 {ty}, {tid}"));
            let base = self.val("base", &format!("mul i32 {bid}, {bsz}"));
            let gtid = self.val("gtid", &format!("add i32 {base}, {lin}"));
            (lin, bsz, gtid)
        } else {
            let tid = self.sreg("tid");
            let ntid = self.sreg("ntid");
            let ctaid = self.sreg("ctaid");
            let base = self.val("base", &format!("mul i32 {ctaid}, {ntid}"));
            let gtid = self.val("gtid", &format!("add i32 {base}, {tid}"));
            (tid, ntid, gtid)
        };
        self.line(&format!("%gtid64 = zext i32 {gtid} to i64"));
        self.line("%begin = mul i64 %gtid64, %chunk");
        self.line("%lim = add i64 %begin, %chunk");
        self.decls.insert("i64 @llvm.umin.i64(i64, i64)");
        self.line("%end = call i64 @llvm.umin.i64(i64 %lim, i64 %n)");
        self.line("%has = icmp ult i64 %begin, %end");
        if let Some(pitch) = self.kernel.slot_bytes() {
            // The thread's own slot, and the next thread's (for exchanges).
            let array = match self.kernel.shared {
                SharedMem::Static { bytes } => {
                    format!("[{bytes} x i8], ptr addrspace(3) {}", self.shared_global)
                }
                _ => format!("[0 x i8], ptr addrspace(3) {DYNAMIC}"),
            };
            self.line(&format!("%tid64 = zext i32 {slot} to i64"));
            self.line(&format!("%slotoff = mul i64 %tid64, {pitch}"));
            self.line(&format!(
                "%slot = getelementptr inbounds {array}, i64 0, i64 %slotoff"
            ));
            let nx = self.val("nx", &format!("add i32 {slot}, 1"));
            let pt = self.val("pt", &format!("urem i32 {nx}, {block_size}"));
            self.line(&format!("%pt64 = zext i32 {pt} to i64"));
            self.line(&format!("%ptoff = mul i64 %pt64, {pitch}"));
            self.line(&format!(
                "%pslot = getelementptr inbounds {array}, i64 0, i64 %ptoff"
            ));
        }
        let kernel = self.kernel;
        for item in &kernel.items {
            match item {
                Item::Loop(l) => self.chunk_loop(l),
                Item::Barrier => self.barrier(),
                Item::Fence(f) => self.fence(*f),
            }
        }
        self.line("ret void");
        self.body.push_str("}\n");
    }

    fn barrier(&mut self) {
        self.decls.insert("void @llvm.nvvm.barrier0()");
        self.line("call void @llvm.nvvm.barrier0()");
    }

    fn fence(&mut self, f: Fence) {
        match f {
            Fence::SeqCst => self.line("fence seq_cst"),
            Fence::Device => self.line("fence syncscope(\"device\") seq_cst"),
            Fence::MembarGl => {
                self.decls.insert("void @llvm.nvvm.membar.gl()");
                self.line("call void @llvm.nvvm.membar.gl()");
            }
            Fence::MembarCta => {
                self.decls.insert("void @llvm.nvvm.membar.cta()");
                self.line("call void @llvm.nvvm.membar.cta()");
            }
        }
    }

    fn chunk_loop(&mut self, l: &Loop) {
        let head = self.label("loop");
        let exit = self.label("done");
        let iv = self.fresh("i");
        let acc = self.fresh("acc");
        let ity = if l.narrow { "i32" } else { "i64" };
        match l.kind {
            LoopKind::Chunk => {
                // The counter's first value, in the preheader.
                let mut first = if l.reverse {
                    self.val("last", "add i64 %end, -1")
                } else {
                    "%begin".to_string()
                };
                if l.narrow {
                    first = self.val("f32_", &format!("trunc i64 {first} to i32"));
                }
                let pre = self.block.clone();
                self.line(&format!("br i1 %has, label %{head}, label %{exit}"));
                self.start(&head);
                self.line(&format!(
                    "{iv} = phi {ity} [ {first}, %{pre} ], [ @@INEXT, @@LATCH ]"
                ));
                self.line(&format!(
                    "{acc} = phi i64 [ 0, %{pre} ], [ @@ANEXT, @@LATCH ]"
                ));
                self.i = if l.narrow {
                    self.val("iw", &format!("zext i32 {iv} to i64"))
                } else {
                    iv.clone()
                };
                self.acc = acc.clone();
                self.exits.push((exit.clone(), Vec::new()));
                self.ops_carrying(&l.ops, &head, &pre);
                if let Some(inner) = &l.inner {
                    self.inner(inner);
                }
                if let Some(scan) = &l.scan {
                    self.scan(scan);
                }
                let next = if l.reverse {
                    self.val("inext", &format!("add {ity} {iv}, -1"))
                } else {
                    self.val("inext", &format!("add nuw {ity} {iv}, 1"))
                };
                let more = if l.reverse {
                    let i = self.i.clone();
                    self.val("more", &format!("icmp ugt i64 {i}, %begin"))
                } else {
                    let wide = self.resize(&next, if l.narrow { 32 } else { 64 }, 64);
                    self.val("more", &format!("icmp ult i64 {wide}, %end"))
                };
                self.line(&format!("br i1 {more}, label %{head}, label %{exit}"));
                self.close_loop(&pre, &next, &exit);
            }
            LoopKind::Uniform => {
                let go = self.val("go", "icmp ne i64 %chunk, 0");
                let pre = self.block.clone();
                self.line(&format!("br i1 {go}, label %{head}, label %{exit}"));
                self.start(&head);
                self.line(&format!(
                    "{iv} = phi i64 [ 0, %{pre} ], [ @@INEXT, @@LATCH ]"
                ));
                self.line(&format!(
                    "{acc} = phi i64 [ 0, %{pre} ], [ @@ANEXT, @@LATCH ]"
                ));
                let i = self.val("i", &format!("add i64 %begin, {iv}"));
                let inside = self.val("in", &format!("icmp ult i64 {i}, %n"));
                let work = self.label("work");
                let join = self.label("join");
                self.line(&format!("br i1 {inside}, label %{work}, label %{join}"));
                self.start(&work);
                self.i = i;
                self.acc = acc.clone();
                self.exits.push((exit.clone(), Vec::new()));
                self.ops(&l.ops);
                if let Some(inner) = &l.inner {
                    self.inner(inner);
                }
                if let Some(scan) = &l.scan {
                    self.scan(scan);
                }
                let from = self.block.clone();
                let worked = self.acc.clone();
                self.line(&format!("br label %{join}"));
                self.start(&join);
                self.acc = self.val(
                    "accj",
                    &format!("phi i64 [ {acc}, %{head} ], [ {worked}, %{from} ]"),
                );
                // Every thread of the block is here, in every iteration.
                self.collectives(&l.warp);
                match l.barrier {
                    LoopBarrier::None => {}
                    LoopBarrier::Plain => self.barrier(),
                    LoopBarrier::Exchange => {
                        let a = self.acc.clone();
                        self.line(&format!("store i64 {a}, ptr addrspace(3) %slot, align 8"));
                        self.barrier();
                        let p = self.val("part", "load i64, ptr addrspace(3) %pslot, align 8");
                        self.barrier();
                        self.acc = self.val("accx", &format!("add i64 {a}, {p}"));
                    }
                }
                let next = self.val("jnext", &format!("add nuw i64 {iv}, 1"));
                let more = self.val("more", &format!("icmp ult i64 {next}, %chunk"));
                self.line(&format!("br i1 {more}, label %{head}, label %{exit}"));
                self.close_loop(&pre, &next, &exit);
            }
        }
        // Every thread leaves the loop through its exit.
        self.collectives(&l.tail);
        if let Some(sink) = &l.sink {
            let store = self.label("sink");
            let after = self.label("after");
            self.line(&format!("br i1 %has, label %{store}, label %{after}"));
            self.start(&store);
            self.i = "%begin".into();
            self.j = None;
            let elem = self.spec.args[sink.arg].elem;
            let acc = self.acc.clone();
            let value = self.value_of_bits(&acc, 64, elem);
            let p = self.address(sink);
            let store = self.spec.args[sink.arg].store_text(&value, &p);
            self.line(&store);
            self.line(&format!("br label %{after}"));
            self.start(&after);
        }
    }

    /// Patches the header phis with the latch (the current block) and opens
    /// the exit block with the accumulator merged from every way out.
    fn close_loop(&mut self, pre: &str, next: &str, exit: &str) {
        let latch = self.block.clone();
        let acc_next = self.acc.clone();
        self.body = self
            .body
            .replace("@@INEXT", next)
            .replace("@@ANEXT", &acc_next)
            .replace("@@LATCH", &format!("%{latch}"));
        let (_, early) = self.exits.pop().expect("loop exits pushed");
        let mut incoming = vec![
            format!("[ 0, %{pre} ]"),
            format!("[ {acc_next}, %{latch} ]"),
        ];
        incoming.extend(early.iter().map(|(b, a)| format!("[ {a}, %{b} ]")));
        self.start(exit);
        self.acc = self.val("accout", &format!("phi i64 {}", incoming.join(", ")));
    }

    /// The inner loop, in its loop of rounds when it has one.
    fn inner(&mut self, inner: &crate::spec::Inner) {
        if inner.repeats == 0 {
            return self.inner_loop(inner);
        }
        // `umin(repeats, n)` rounds: a count the optimizer cannot see, so the
        // rounds stay a loop around the inner one.
        let rounds = self.val(
            "rtrips",
            &format!("call i64 @llvm.umin.i64(i64 %n, i64 {})", inner.repeats),
        );
        let pre = self.block.clone();
        let head = self.label("round");
        let exit = self.label("rdone");
        self.line(&format!("br label %{head}"));
        self.start(&head);
        let r = self.fresh("r");
        let racc = self.fresh("racc");
        let outer_acc = self.acc.clone();
        self.line(&format!(
            "{r} = phi i64 [ 0, %{pre} ], [ @@RNEXT, @@RLATCH ]"
        ));
        self.line(&format!(
            "{racc} = phi i64 [ {outer_acc}, %{pre} ], [ @@RACC, @@RLATCH ]"
        ));
        self.acc = racc;
        self.inner_loop(inner);
        let done = self.acc.clone();
        let mixed = self.val("rmix", &format!("xor i64 {done}, {r}"));
        let next = self.val("rn", &format!("add nuw i64 {r}, 1"));
        let more = self.val("rmore", &format!("icmp ult i64 {next}, {rounds}"));
        self.line(&format!("br i1 {more}, label %{head}, label %{exit}"));
        let latch = self.block.clone();
        self.body = self
            .body
            .replace("@@RNEXT", &next)
            .replace("@@RACC", &mixed)
            .replace("@@RLATCH", &format!("%{latch}"));
        self.start(&exit);
        self.acc = self.val("rout", &format!("phi i64 [ {mixed}, %{latch} ]"));
    }

    fn inner_loop(&mut self, inner: &crate::spec::Inner) {
        // A window loop runs to the chunk's end at most: a count known at
        // run time only.
        // Counted from the chunk loop's `i` (`from_outer`), the bound is
        // `umin(end, i + trips)` and the counter the element's index.
        let from_outer = inner.window && inner.from_outer;
        let trips = if from_outer {
            let i = self.i.clone();
            let far = self.val("wfar", &format!("add nuw i64 {i}, {}", inner.trips));
            self.val(
                "wend",
                &format!("call i64 @llvm.umin.i64(i64 %end, i64 {far})"),
            )
        } else if inner.window {
            let i = self.i.clone();
            let rest = self.val("wrest", &format!("sub i64 %end, {i}"));
            self.val(
                "wtrips",
                &format!("call i64 @llvm.umin.i64(i64 {rest}, i64 {})", inner.trips),
            )
        } else {
            inner.trips.to_string()
        };
        let first = if from_outer {
            self.i.clone()
        } else {
            "0".to_string()
        };
        let pre = self.block.clone();
        let head = self.label("inner");
        let exit = self.label("idone");
        self.line(&format!("br label %{head}"));
        self.start(&head);
        let j = self.fresh("j");
        let acc = self.fresh("iacc");
        let outer_acc = self.acc.clone();
        self.line(&format!(
            "{j} = phi i64 [ {first}, %{pre} ], [ @@JNEXT, @@JLATCH ]"
        ));
        self.line(&format!(
            "{acc} = phi i64 [ {outer_acc}, %{pre} ], [ @@JACC, @@JLATCH ]"
        ));
        self.j = Some(j.clone());
        self.j_from_outer = from_outer;
        self.acc = acc;
        self.exits.push((exit.clone(), Vec::new()));
        self.ops(&inner.ops);
        let next = self.val("jn", &format!("add nuw i64 {j}, 1"));
        let more = self.val("jmore", &format!("icmp ult i64 {next}, {trips}"));
        self.line(&format!("br i1 {more}, label %{head}, label %{exit}"));
        let latch = self.block.clone();
        let acc_next = self.acc.clone();
        self.body = self
            .body
            .replace("@@JNEXT", &next)
            .replace("@@JACC", &acc_next)
            .replace("@@JLATCH", &format!("%{latch}"));
        let (_, early) = self.exits.pop().expect("inner exits pushed");
        let mut incoming = vec![(acc_next, latch)];
        incoming.extend(early.into_iter().map(|(b, a)| (a, b)));
        self.start(&exit);
        let list: Vec<String> = incoming
            .iter()
            .map(|(v, b)| format!("[ {v}, %{b} ]"))
            .collect();
        self.acc = self.val("iout", &format!("phi i64 {}", list.join(", ")));
        self.j = None;
        self.j_from_outer = false;
    }

    /// A chunk loop's own statements, at the start of its iteration: the
    /// tests they carry to the next iteration become phis of its header
    /// `head` (false on entry from `pre`), in place of a marker line.
    fn ops_carrying(&mut self, ops: &[Op], head: &str, pre: &str) {
        let marker = format!("@@CARRIED{head}");
        self.line(&marker);
        self.carried = Some(Vec::new());
        self.ops(ops);
        let phis: String = self
            .carried
            .take()
            .unwrap_or_default()
            .iter()
            .map(|(phi, next)| format!("  {phi} = phi i1 [ false, %{pre} ], [ {next}, @@LATCH ]\n"))
            .collect();
        self.body = self.body.replace(&format!("  {marker}\n"), &phis);
    }

    fn ops(&mut self, ops: &[Op]) {
        for op in ops {
            self.op(op);
        }
    }

    fn op(&mut self, op: &Op) {
        match op {
            Op::Update { dst, srcs, arith } => {
                let elem = self.spec.args[dst.arg].elem;
                let mut value: Option<String> = None;
                for src in srcs {
                    let v = self.load(src);
                    let sel = self.spec.args[src.arg].elem;
                    let bits = self.bits_of(&v, sel);
                    let conv = self.resize(&bits, sel.bits(), elem.bits());
                    let typed = self.value_of_bits(&conv, elem.bits(), elem);
                    value = Some(match value {
                        None => typed,
                        Some(prev) => self.combine(&prev, &typed, elem),
                    });
                }
                let value = match value {
                    Some(v) => v,
                    None => {
                        // No source: the accumulator.
                        let acc = self.acc.clone();
                        self.value_of_bits(&acc, 64, elem)
                    }
                };
                let result = self.arith(&value, *arith, elem);
                let p = self.address(dst);
                let store = self.spec.args[dst.arg].store_text(&result, &p);
                self.line(&store);
                let bits = self.bits_of(&result, elem);
                let wide = self.resize(&bits, elem.bits(), 64);
                let acc = self.acc.clone();
                self.acc = self.val("acc", &format!("xor i64 {acc}, {wide}"));
            }
            Op::Reduce { src } => {
                let wide = self.load_bits64(src);
                let acc = self.acc.clone();
                let m = self.val("m", &format!("mul i64 {acc}, 31"));
                self.acc = self.val("acc", &format!("add i64 {m}, {wide}"));
            }
            Op::Tally {
                src,
                mask,
                value,
                starts,
            } => {
                let mut hit = self.masked_match(src, *mask, *value, ("tm", "th"));
                // The test of the element before, carried from the last
                // iteration (false in the first): in a chunk loop's own
                // statements only.
                if let (true, Some(carried)) = (*starts, self.carried.as_mut()) {
                    let was = format!("%tw{}_{}", carried.len(), self.next);
                    self.next += 1;
                    carried.push((was.clone(), hit.clone()));
                    let not = self.val("tn", &format!("xor i1 {hit}, true"));
                    hit = self.val("ts", &format!("and i1 {was}, {not}"));
                }
                let one = self.val("t1", &format!("zext i1 {hit} to i64"));
                let acc = self.acc.clone();
                self.acc = self.val("acc", &format!("add i64 {acc}, {one}"));
            }
            Op::Classify {
                src,
                cases,
                default,
            } => {
                let wide = self.load_bits64(src);
                let byte = self.val("cb", &format!("and i64 {wide}, 255"));
                let join = self.label("cjoin");
                let otherwise = self.label("cdef");
                let labels: Vec<String> = cases.iter().map(|_| self.label("ccase")).collect();
                let arms: Vec<String> = cases
                    .iter()
                    .zip(&labels)
                    .map(|((k, _), l)| format!("i64 {k}, label %{l}"))
                    .collect();
                self.line(&format!(
                    "switch i64 {byte}, label %{otherwise} [ {} ]",
                    arms.join(" ")
                ));
                for l in labels.iter().chain([&otherwise]) {
                    self.start(l);
                    self.line(&format!("br label %{join}"));
                }
                self.start(&join);
                let incoming: Vec<String> = cases
                    .iter()
                    .zip(&labels)
                    .map(|((_, value), l)| format!("[ {value}, %{l} ]"))
                    .chain([format!("[ {default}, %{otherwise} ]")])
                    .collect();
                let chosen = self.val("cv", &format!("phi i64 {}", incoming.join(", ")));
                let acc = self.acc.clone();
                self.acc = self.val("acc", &format!("add i64 {acc}, {chosen}"));
            }
            Op::Atomic { target, op, global } => {
                let a = &self.spec.args[target.arg];
                let (elem, owned) = (a.elem, a.role == Role::Owned);
                let acc = self.acc.clone();
                let value = if elem.is_float() {
                    self.float_operand(&acc, elem, owned)
                } else {
                    self.resize(&acc, 64, elem.bits())
                };
                let p = self.address(target);
                let (ptr_ty, p) = if *global {
                    let g = self.val("g", &format!("addrspacecast ptr {p} to ptr addrspace(1)"));
                    ("ptr addrspace(1)", g)
                } else {
                    ("ptr", p)
                };
                let name = match op {
                    AtomicOp::Add => "add",
                    AtomicOp::Or => "or",
                    AtomicOp::Xor => "xor",
                    AtomicOp::UMax => "umax",
                    AtomicOp::FAdd => "fadd",
                    AtomicOp::FMin => "fmin",
                    AtomicOp::FMax => "fmax",
                };
                let old = self.val(
                    "old",
                    &format!(
                        "atomicrmw {name} {ptr_ty} {p}, {} {value} syncscope(\"device\") monotonic, align {}",
                        elem.ir(),
                        elem.size()
                    ),
                );
                if owned {
                    let bits = self.bits_of(&old, elem);
                    let wide = self.resize(&bits, elem.bits(), 64);
                    self.acc = self.val("acc", &format!("add i64 {acc}, {wide}"));
                }
            }
            Op::Call { src } => {
                let p = self.address(src);
                let acc = self.acc.clone();
                let f = helper_name(self.spec);
                self.acc = self.val("acc", &format!("call i64 @{f}(ptr {p}, i64 {acc})"));
            }
            Op::Fence(f) => self.fence(*f),
            Op::Stage => {
                let acc = self.acc.clone();
                self.line(&format!("store i64 {acc}, ptr addrspace(3) %slot, align 8"));
                let back = self.val("st", "load i64, ptr addrspace(3) %slot, align 8");
                let x = self.val("sx", &format!("mul i64 {back}, 3"));
                self.acc = self.val("acc", &format!("add i64 {acc}, {x}"));
            }
            Op::EarlyExit { src, mask, value } => {
                let hit = self.masked_match(src, *mask, *value, ("mk", "hit"));
                let cont = self.label("cont");
                let from = self.block.clone();
                let acc = self.acc.clone();
                let (target, early) = self.exits.last_mut().expect("early exit inside a loop");
                early.push((from, acc));
                let target = target.clone();
                self.line(&format!("br i1 {hit}, label %{target}, label %{cont}"));
                self.start(&cont);
            }
        }
    }

    /// Loads `access` and returns its bits as an i64 (zero-extended).
    fn load_bits64(&mut self, access: &Access) -> String {
        let v = self.load(access);
        let elem = self.spec.args[access.arg].elem;
        let bits = self.bits_of(&v, elem);
        self.resize(&bits, elem.bits(), 64)
    }

    /// Whether `(bits(load access) & mask) == value & mask`, an i1; `names`
    /// hint the masked value's and the compare's names.
    fn masked_match(
        &mut self,
        access: &Access,
        mask: u64,
        value: u64,
        names: (&str, &str),
    ) -> String {
        let wide = self.load_bits64(access);
        let masked = self.val(names.0, &format!("and i64 {wide}, {}", mask as i64));
        self.val(
            names.1,
            &format!("icmp eq i64 {masked}, {}", (value & mask) as i64),
        )
    }

    /// Loads `access`, returning the value in its element type.
    fn load(&mut self, access: &Access) -> String {
        let p = self.address(access);
        let load = self.spec.args[access.arg].load_text(&p);
        self.val("v", &load)
    }

    /// The element index of `access` (i64), then its address.
    fn address(&mut self, access: &Access) -> String {
        let a = &self.spec.args[access.arg];
        let (elem, stride) = (a.elem, a.stride);
        let i = self.i.clone();
        let base = if stride == 1 {
            i.clone()
        } else {
            self.val("ik", &format!("mul i64 {i}, {stride}"))
        };
        let bound = || format!("mul i64 %n, {stride}");
        let index = match &access.index {
            Index::Linear { c: 0 } => base,
            Index::Linear { c } => self.val("ix", &format!("add i64 {base}, {c}")),
            Index::Shifted { d } => {
                let nk = self.val("nk", &bound());
                let last = self.val("nl", &format!("add i64 {nk}, -1"));
                let x = self.val("sh", &format!("add i64 {base}, {d}"));
                let x = if *d < 0 {
                    let under = self.val("un", &format!("icmp ult i64 {base}, {}", -d));
                    self.val("cl", &format!("select i1 {under}, i64 0, i64 {x}"))
                } else {
                    x
                };
                self.val(
                    "ix",
                    &format!("call i64 @llvm.umin.i64(i64 {x}, i64 {last})"),
                )
            }
            Index::Indirect { via } => {
                let via = Access {
                    arg: *via,
                    index: Index::Linear { c: 0 },
                };
                let v = self.load(&via);
                let velem = self.spec.args[via.arg].elem;
                let bits = self.bits_of(&v, velem);
                let wide = self.resize(&bits, velem.bits(), 64);
                let nk = self.val("nk", &bound());
                self.val("ix", &format!("urem i64 {wide}, {nk}"))
            }
            Index::InnerLinear => {
                let j = self.j.clone().expect("inner index in an inner loop");
                if stride == 1 {
                    base
                } else {
                    let r = self.val("jr", &format!("urem i64 {j}, {stride}"));
                    self.val("ix", &format!("add i64 {base}, {r}"))
                }
            }
            Index::InnerWindow { c } => {
                let j = self.j.clone().expect("window index in a window loop");
                let ij = if self.j_from_outer {
                    j
                } else {
                    self.val("ij", &format!("add i64 {i}, {j}"))
                };
                let scaled = if stride == 1 {
                    ij
                } else {
                    self.val("ijk", &format!("mul i64 {ij}, {stride}"))
                };
                if *c == 0 {
                    scaled
                } else {
                    self.val("ix", &format!("add i64 {scaled}, {c}"))
                }
            }
            Index::Fixed { c } => c.to_string(),
            Index::Broadcast { c } => {
                let step = self.val("bk", &format!("sub i64 {i}, %begin"));
                let scaled = if stride == 1 {
                    step
                } else {
                    self.val("bks", &format!("mul i64 {step}, {stride}"))
                };
                let x = self.val("bx", &format!("add i64 {scaled}, {c}"));
                let nk = self.val("nk", &bound());
                let last = self.val("nl", &format!("add i64 {nk}, -1"));
                self.val(
                    "ix",
                    &format!("call i64 @llvm.umin.i64(i64 {x}, i64 {last})"),
                )
            }
            Index::InnerSpread { d } => {
                let j = self.j.clone().expect("inner index in an inner loop");
                let nk = self.val("nk", &bound());
                let last = self.val("nl", &format!("add i64 {nk}, -1"));
                let jd = self.val("jd", &format!("mul i64 {j}, {d}"));
                let x = self.val("sp", &format!("add i64 {base}, {jd}"));
                self.val(
                    "ix",
                    &format!("call i64 @llvm.umin.i64(i64 {x}, i64 {last})"),
                )
            }
        };
        self.val(
            "p",
            &format!(
                "getelementptr inbounds {}, ptr %a{}, i64 {index}",
                elem.ir(),
                access.arg
            ),
        )
    }

    /// The value a float atomic adds (or compares): on an Owned target a
    /// float of the accumulator's low 16 bits over 8 (one thread per
    /// element: any value); on a Shared one a value whose sums are exact in
    /// any order (float: 0 to 3; double: a multiple of 1/16 below 4096).
    fn float_operand(&mut self, acc: &str, elem: Elem, owned: bool) -> String {
        let ty = elem.ir();
        let (mask, scale) = match (owned, elem) {
            (true, _) => (0xFFFF, "0.125"),
            (false, Elem::F32) => (3, "1.0"),
            (false, _) => (0xFFFF, "0.0625"),
        };
        let low = self.val("fm", &format!("and i64 {acc}, {mask}"));
        let f = self.val("fv", &format!("uitofp i64 {low} to {ty}"));
        if scale == "1.0" {
            f
        } else {
            self.val("fs", &format!("fmul {ty} {f}, {scale}"))
        }
    }

    /// Warp collectives on the accumulator (all 32 lanes are here).
    fn collectives(&mut self, cs: &[Collective]) {
        for c in cs {
            let acc = self.acc.clone();
            let mixed = match *c {
                Collective::Shfl { mode, lane } => {
                    let (name, clamp) = match mode {
                        ShflMode::Idx => ("idx", 31),
                        ShflMode::Bfly => ("bfly", 31),
                        ShflMode::Down => ("down", 31),
                        ShflMode::Up => ("up", 0),
                    };
                    self.decls.insert(match mode {
                        ShflMode::Idx => "i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)",
                        ShflMode::Bfly => "i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)",
                        ShflMode::Down => "i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)",
                        ShflMode::Up => "i32 @llvm.nvvm.shfl.sync.up.i32(i32, i32, i32, i32)",
                    });
                    let v = self.resize(&acc, 64, 32);
                    let r = self.val(
                        "sh",
                        &format!(
                            "call i32 @llvm.nvvm.shfl.sync.{name}.i32(i32 -1, i32 {v}, i32 {lane}, i32 {clamp})"
                        ),
                    );
                    self.resize(&r, 32, 64)
                }
                Collective::Ballot { bit } => {
                    let p = self.acc_bit(&acc, bit);
                    self.decls
                        .insert("i32 @llvm.nvvm.vote.ballot.sync(i32, i1)");
                    let r = self.val(
                        "vb",
                        &format!("call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 {p})"),
                    );
                    self.resize(&r, 32, 64)
                }
                Collective::Any { bit } | Collective::All { bit } => {
                    let which = if matches!(c, Collective::Any { .. }) {
                        "any"
                    } else {
                        "all"
                    };
                    self.decls.insert(if which == "any" {
                        "i1 @llvm.nvvm.vote.any.sync(i32, i1)"
                    } else {
                        "i1 @llvm.nvvm.vote.all.sync(i32, i1)"
                    });
                    let p = self.acc_bit(&acc, bit);
                    let r = self.val(
                        "vt",
                        &format!("call i1 @llvm.nvvm.vote.{which}.sync(i32 -1, i1 {p})"),
                    );
                    self.val("vz", &format!("select i1 {r}, i64 40503, i64 1"))
                }
            };
            let m = self.val("wm", &format!("mul i64 {acc}, 33"));
            self.acc = self.val("acc", &format!("add i64 {m}, {mixed}"));
        }
    }

    /// Bit `bit` of the accumulator as an i1.
    fn acc_bit(&mut self, acc: &str, bit: u32) -> String {
        let s = self.val("bs", &format!("lshr i64 {acc}, {bit}"));
        self.val("bt", &format!("trunc i64 {s} to i1"))
    }

    /// A scan until a delimiter (`Scan`), from element `i * stride` on.
    fn scan(&mut self, scan: &Scan) {
        let a = &self.spec.args[scan.src];
        let (elem, stride, align, read_only) =
            (a.elem, a.stride, a.align(), a.role == Role::ReadOnly);
        let i = self.i.clone();
        let start = if stride == 1 {
            i.clone()
        } else {
            self.val("ss", &format!("mul i64 {i}, {stride}"))
        };
        // The last element the scan may read: the buffer's, or the chunk's.
        let limit = if read_only {
            let nk = self.val("sn", &format!("mul i64 %n, {stride}"));
            self.val("sl", &format!("add i64 {nk}, -1"))
        } else {
            let ek = self.val("sn", &format!("mul i64 %end, {stride}"));
            self.val("sl", &format!("add i64 {ek}, -1"))
        };
        let head = self.label("scan");
        let exit = self.label("sdone");
        let delimiter = |e: &mut Self, v: &str| {
            let bits = e.bits_of(v, elem);
            let wide = e.resize(&bits, elem.bits(), 64);
            let masked = e.val("sk", &format!("and i64 {wide}, {}", scan.mask as i64));
            let hit = e.val(
                "sh",
                &format!("icmp eq i64 {masked}, {}", (scan.value & scan.mask) as i64),
            );
            (wide, hit)
        };
        if scan.gated {
            // Only from a line's start: the first element, or one after a
            // delimiter.
            let at0 = self.val("s0", &format!("icmp eq i64 {start}, 0"));
            let one = self.val(
                "s1",
                &format!("call i64 @llvm.umax.i64(i64 {start}, i64 1)"),
            );
            self.decls.insert("i64 @llvm.umax.i64(i64, i64)");
            let prev = self.val("sq", &format!("add i64 {one}, -1"));
            let p = self.val(
                "sp",
                &format!(
                    "getelementptr inbounds {}, ptr %a{}, i64 {prev}",
                    elem.ir(),
                    scan.src
                ),
            );
            let v = self.val("sv", &format!("load {}, ptr {p}, align {align}", elem.ir()));
            let (_, hit) = delimiter(self, &v);
            let go = self.val("sg", &format!("or i1 {at0}, {hit}"));
            self.line(&format!("br i1 {go}, label %{head}, label %{exit}"));
        } else {
            self.line(&format!("br label %{head}"));
        }
        let pre = self.block.clone();
        self.start(&head);
        let s = self.fresh("s");
        let acc = self.fresh("sacc");
        let outer_acc = self.acc.clone();
        self.line(&format!(
            "{s} = phi i64 [ 0, %{pre} ], [ @@SNEXT, @@SLATCH ]"
        ));
        self.line(&format!(
            "{acc} = phi i64 [ {outer_acc}, %{pre} ], [ @@SACC, @@SLATCH ]"
        ));
        let k = self.val("sx", &format!("add i64 {start}, {s}"));
        let k = self.val(
            "sc",
            &format!("call i64 @llvm.umin.i64(i64 {k}, i64 {limit})"),
        );
        let p = self.val(
            "sp",
            &format!(
                "getelementptr inbounds {}, ptr %a{}, i64 {k}",
                elem.ir(),
                scan.src
            ),
        );
        let v = self.val("sv", &format!("load {}, ptr {p}, align {align}", elem.ir()));
        let (wide, hit) = delimiter(self, &v);
        let m = self.val("sm", &format!("mul i64 {acc}, 31"));
        self.acc = self.val("sa", &format!("add i64 {m}, {wide}"));
        let saved_j = self.j.replace(s.clone());
        let saved_from_outer = std::mem::replace(&mut self.j_from_outer, false);
        self.exits.push((exit.clone(), Vec::new()));
        self.ops(&scan.ops);
        if let Some(m) = &scan.matched {
            self.pattern_compare(m, &s);
        }
        // The delimiter ends the scan (after the statements of its element).
        let found = self.block.clone();
        let acc_found = self.acc.clone();
        let latch = self.label("slatch");
        self.line(&format!("br i1 {hit}, label %{exit}, label %{latch}"));
        self.start(&latch);
        let next = self.val("sn", &format!("add nuw i64 {s}, 1"));
        let more = self.val("sb", &format!("icmp ult i64 {next}, {}", scan.bound));
        let at = self.val("sx", &format!("add i64 {start}, {next}"));
        let inside = self.val("si", &format!("icmp ule i64 {at}, {limit}"));
        let go = self.val("sg", &format!("and i1 {more}, {inside}"));
        self.line(&format!("br i1 {go}, label %{head}, label %{exit}"));
        self.body = self
            .body
            .replace("@@SNEXT", &next)
            .replace("@@SACC", &acc_found)
            .replace("@@SLATCH", &format!("%{latch}"));
        let (_, early) = self.exits.pop().expect("scan exits pushed");
        let mut incoming = vec![(acc_found.clone(), found), (acc_found, latch)];
        if scan.gated {
            incoming.push((outer_acc, pre));
        }
        incoming.extend(early.into_iter().map(|(b, a)| (a, b)));
        self.start(&exit);
        let list: Vec<String> = incoming
            .iter()
            .map(|(v, b)| format!("[ {v}, %{b} ]"))
            .collect();
        self.acc = self.val("sout", &format!("phi i64 {}", list.join(", ")));
        self.j = saved_j;
        self.j_from_outer = saved_from_outer;
    }

    /// `m`, the compare inside a scan whose counter is `j`: a loop that
    /// stays only while its compare for equality holds.
    fn pattern_compare(&mut self, m: &Match, j: &str) {
        let a = &self.spec.args[m.src];
        let (elem, stride, align) = (a.elem, a.stride, a.align());
        let i = self.i.clone();
        let base = self.val("mi", &format!("mul i64 {i}, {stride}"));
        let base = self.val("mj", &format!("add i64 {base}, {j}"));
        let nk = self.val("mn", &format!("mul i64 %n, {stride}"));
        let limit = self.val("ml", &format!("add i64 {nk}, -1"));
        let pre = self.block.clone();
        let head = self.label("mh");
        let body = self.label("mb");
        let done = self.label("md");
        self.line(&format!("br label %{head}"));
        self.start(&head);
        let count = self.fresh("mc");
        let next = self.fresh("mnext");
        self.line(&format!(
            "{count} = phi i64 [ 0, %{pre} ], [ {next}, %{body} ]"
        ));
        let more = self.val("mm", &format!("icmp ult i64 {count}, {}", m.bound));
        self.line(&format!("br i1 {more}, label %{body}, label %{done}"));
        self.start(&body);
        let at = self.val("mx", &format!("add i64 {base}, {count}"));
        let at = self.val(
            "mx",
            &format!("call i64 @llvm.umin.i64(i64 {at}, i64 {limit})"),
        );
        self.decls.insert("i64 @llvm.umin.i64(i64, i64)");
        let p = self.val(
            "mp",
            &format!(
                "getelementptr inbounds {}, ptr %a{}, i64 {at}",
                elem.ir(),
                m.src
            ),
        );
        let v = self.val("mv", &format!("load {}, ptr {p}, align {align}", elem.ir()));
        let bits = self.bits_of(&v, elem);
        let wide = self.resize(&bits, elem.bits(), 64);
        let got = self.val("mg", &format!("and i64 {wide}, {}", m.mask as i64));
        let stepped = self.val("ms", &format!("mul i64 {count}, {}", m.step));
        let want = self.val("mw", &format!("add i64 {stepped}, {}", m.first));
        let want = self.val("mw", &format!("and i64 {want}, {}", m.mask as i64));
        let equal = self.val("me", &format!("icmp eq i64 {got}, {want}"));
        self.line(&format!("{next} = add nuw i64 {count}, 1"));
        self.line(&format!("br i1 {equal}, label %{head}, label %{done}"));
        self.start(&done);
        let found = self.val(
            "mf",
            &format!("phi i64 [ {count}, %{head} ], [ {count}, %{body} ]"),
        );
        let acc = self.acc.clone();
        let scaled = self.val("mk", &format!("mul i64 {acc}, 31"));
        self.acc = self.val("ma", &format!("add i64 {scaled}, {found}"));
    }

    /// The bits of a value of `elem` as an integer of `elem.bits()`.
    fn bits_of(&mut self, v: &str, elem: Elem) -> String {
        match elem {
            Elem::F32 => self.val("b", &format!("bitcast float {v} to i32")),
            Elem::F64 => self.val("b", &format!("bitcast double {v} to i64")),
            Elem::V4I32 => self.val("b", &format!("bitcast <4 x i32> {v} to i128")),
            _ => v.to_string(),
        }
    }

    /// An integer of `bits` as a value of `elem` (resized first).
    fn value_of_bits(&mut self, v: &str, bits: u32, elem: Elem) -> String {
        let r = self.resize(v, bits, elem.bits());
        match elem {
            Elem::F32 => self.val("f", &format!("bitcast i32 {r} to float")),
            Elem::F64 => self.val("f", &format!("bitcast i64 {r} to double")),
            Elem::V4I32 => self.val("vv", &format!("bitcast i128 {r} to <4 x i32>")),
            _ => r,
        }
    }

    fn resize(&mut self, v: &str, from: u32, to: u32) -> String {
        use std::cmp::Ordering::*;
        match from.cmp(&to) {
            Equal => v.to_string(),
            Less => self.val("z", &format!("zext i{from} {v} to i{to}")),
            Greater => self.val("t", &format!("trunc i{from} {v} to i{to}")),
        }
    }

    fn combine(&mut self, a: &str, b: &str, elem: Elem) -> String {
        match elem {
            Elem::F32 | Elem::F64 => {
                let sum = self.val("c", &format!("fadd {} {a}, {b}", elem.ir()));
                self.canonical_nan(&sum, elem)
            }
            _ => self.val("c", &format!("add {} {a}, {b}", elem.ir())),
        }
    }

    /// `v`, a float operation's result, with any NaN replaced by the one
    /// quiet NaN: LLVM leaves a NaN result's sign and payload unspecified
    /// (and sNaN unquieted: `fadd x, 0.0` may fold to `x`), so two correct
    /// builds, or the same IR on two machines, may give different NaN bits
    /// (operands commuted, or not). Bit operations on the stored result
    /// would carry such a difference into any value: the differential
    /// fuzzer would report it (seeds 101540 and 101708 did, 2026-11-25).
    fn canonical_nan(&mut self, v: &str, elem: Elem) -> String {
        let ty = elem.ir();
        let is_nan = self.val("nan", &format!("fcmp uno {ty} {v}, 0.0"));
        // Chosen among the bits, as integers: a 64-bit register that a
        // double operation (`selp.f64`) wrote and a narrow store or call
        // then takes is converted by ptxas, not cut
        // (`sl1_pass::ptxas_bugs`, seed 2007399).
        let (int, canon) = match elem {
            Elem::F32 => ("i32", "2143289344"),
            _ => ("i64", "9221120237041090560"),
        };
        let bits = self.val("nb", &format!("bitcast {ty} {v} to {int}"));
        let chosen = self.val(
            "cb",
            &format!("select i1 {is_nan}, {int} {canon}, {int} {bits}"),
        );
        self.val("cn", &format!("bitcast {int} {chosen} to {ty}"))
    }

    /// `arith` in `elem`'s type; constants are cut to the width.
    fn arith(&mut self, v: &str, arith: Arith, elem: Elem) -> String {
        let ty = elem.ir();
        let lane_bits = if elem == Elem::V4I32 { 32 } else { elem.bits() };
        let mask = |c: u64| {
            if lane_bits >= 64 {
                c
            } else {
                c & ((1u64 << lane_bits) - 1)
            }
        };
        let splat = |c: String| {
            if elem == Elem::V4I32 {
                format!("<i32 {c}, i32 {c}, i32 {c}, i32 {c}>")
            } else {
                c
            }
        };
        match (elem, arith) {
            (Elem::F32 | Elem::F64, Arith::Add(c)) => {
                let k = (c % 16) as f64 * 0.25;
                let r = self.val("r", &format!("fadd {ty} {v}, {k:?}"));
                self.canonical_nan(&r, elem)
            }
            (Elem::F32 | Elem::F64, Arith::Mul(c)) => {
                let k = (c % 8) as f64 * 0.5;
                let r = self.val("r", &format!("fmul {ty} {v}, {k:?}"));
                self.canonical_nan(&r, elem)
            }
            (Elem::F32 | Elem::F64, other) => {
                // Bit operations on the float's bits.
                let bits = self.bits_of(v, elem);
                let int = if elem == Elem::F32 {
                    Elem::I32
                } else {
                    Elem::I64
                };
                let r = self.arith(&bits, other, int);
                self.value_of_bits(&r, int.bits(), elem)
            }
            (_, Arith::Add(c)) => self.val(
                "r",
                &format!("add {ty} {v}, {}", splat(mask(c).to_string())),
            ),
            (_, Arith::Xor(c)) => self.val(
                "r",
                &format!("xor {ty} {v}, {}", splat(mask(c).to_string())),
            ),
            (_, Arith::Mul(c)) => self.val(
                "r",
                &format!("mul {ty} {v}, {}", splat(mask(c).to_string())),
            ),
            (_, Arith::Shl(s)) => {
                let s = (s % lane_bits).to_string();
                self.val("r", &format!("shl {ty} {v}, {}", splat(s)))
            }
            (_, Arith::LShr(s)) => {
                let s = (s % lane_bits).to_string();
                self.val("r", &format!("lshr {ty} {v}, {}", splat(s)))
            }
            (_, Arith::InRange { lo, width, c, xor }) => {
                let t = self.val(
                    "t",
                    &format!("sub {ty} {v}, {}", splat(mask(lo).to_string())),
                );
                let inside = self.val(
                    "in",
                    &format!("icmp ult {ty} {t}, {}", splat(mask(width).to_string())),
                );
                let op = if xor { "xor" } else { "add" };
                let m = self.val(
                    "m",
                    &format!("{op} {ty} {v}, {}", splat(mask(c).to_string())),
                );
                let cond = if elem == Elem::V4I32 {
                    "<4 x i1>"
                } else {
                    "i1"
                };
                self.val("r", &format!("select {cond} {inside}, {ty} {m}, {ty} {v}"))
            }
            (_, Arith::Flag { pred, c }) => {
                let f = self.val(
                    "f",
                    &format!(
                        "icmp {} {ty} {v}, {}",
                        pred.ir(),
                        splat(mask(c).to_string())
                    ),
                );
                let cond = if elem == Elem::V4I32 {
                    "<4 x i1>"
                } else {
                    "i1"
                };
                self.val("r", &format!("zext {cond} {f} to {ty}"))
            }
        }
    }
}
