//! docs/options.md holds the options table made from the one list
//! (`sl1_driver::cli::options_table`), so that the reference cannot drift
//! from the options the plugin and the driver take. `SL1_UPDATE_DOCS=1`
//! writes the table into the page.

mod common;

const BEGIN: &str = "<!-- options table: made by sl1_driver::cli::options_table -->\n";
const END: &str = "<!-- end of options table -->";

#[test]
fn the_options_page_holds_the_table_the_list_makes() {
    let path = common::repo().join("docs/options.md");
    let page = std::fs::read_to_string(&path).unwrap();
    let (Some(start), Some(end)) = (page.find(BEGIN), page.find(END)) else {
        panic!("{} lacks the table's markers", path.display());
    };
    let current = &page[start + BEGIN.len()..end];
    let made = sl1_driver::cli::options_table();
    if current == made {
        return;
    }
    if std::env::var_os("SL1_UPDATE_DOCS").is_some() {
        let updated = format!("{}{BEGIN}{made}{}", &page[..start], &page[end..]);
        std::fs::write(&path, updated).unwrap();
        return;
    }
    panic!(
        "docs/options.md's table differs from the option list; run \
         SL1_UPDATE_DOCS=1 cargo test -p sl1-driver --test options_doc\n--- page\n{current}\n--- list\n{made}"
    );
}
