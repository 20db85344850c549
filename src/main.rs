//! Entry point: in the browser, mount the app; natively, the `toolscope` command line.

#[cfg(all(target_arch = "wasm32", feature = "ui"))]
fn main() {
    console_error_panic_hook::set_once();
    // The first paint written at build time (`toolscope prerender`) goes in the same task as
    // the app mounts, so the page never shows both, nor neither.
    if let Some(shell) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(toolscope::prerender::ROOT_ID))
    {
        shell.remove();
    }
    leptos::mount::mount_to_body(toolscope::ui::App);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(toolscope::cli::run(std::env::args().skip(1).collect()));
}

/// Without the `ui` feature the wasm build is a library for the lazy module: nothing to mount.
#[cfg(all(target_arch = "wasm32", not(feature = "ui")))]
fn main() {}
