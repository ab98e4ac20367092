//! docs/options.md holds the options table made from the one list
//! (`sl1_driver::cli::options_table`), so that the reference cannot drift
//! from the options the plugin and the driver take. `SL1_UPDATE_DOCS=1`
//! writes the table into the page.

mod common;

const BEGIN: &str = "<!-- options table: made by sl1_driver::cli::options_table -->\n";
const END: &str = "<!-- end of options table -->";

#[test]
fn the_options_page_holds_the_table_the_list_makes() {
    common::assert_page_holds(
        "docs/options.md",
        (BEGIN, END),
        &sl1_driver::cli::options_table(),
        "options_doc",
    );
}
