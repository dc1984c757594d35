//! Browser tests: the widget mounted in headless Chromium, driven as a reader would.
#![cfg(target_arch = "wasm32")]

use std::time::Duration;
use trainer_v2_explorer::ui;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, KeyboardEvent, KeyboardEventInit};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// The page's address set from here, as a host page's own script (or a link) would.
fn set_search(query: &str) {
    let w = web_sys::window().unwrap();
    let path = w.location().pathname().unwrap();
    w.history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("{path}{query}")))
        .unwrap();
}

/// A clean page: no query string, empty storage, no earlier mounts.
fn reset(query: &str) {
    set_search(query);
    if let Ok(Some(s)) = web_sys::window().unwrap().local_storage() {
        s.clear().unwrap();
    }
    let old = document().query_selector_all("[data-trainer-v2-explorer]").unwrap();
    for i in 0..old.length() {
        let el: Element = old.item(i).unwrap().dyn_into().unwrap();
        el.remove();
        ui::mount::unmount(&el);
    }
}

fn host(attrs: &[(&str, &str)]) -> Element {
    let el = document().create_element("div").unwrap();
    el.set_attribute("data-trainer-v2-explorer", "").unwrap();
    for (k, v) in attrs {
        el.set_attribute(k, v).unwrap();
    }
    el.set_inner_html("<pre>static fallback</pre>");
    document().body().unwrap().append_child(&el).unwrap();
    el
}

async fn settle() {
    yew::scheduler::flush().await;
    yew::platform::time::sleep(Duration::from_millis(20)).await;
    yew::scheduler::flush().await;
}

/// Waits until `holds` is true, yielding to the page between looks; fails after 10 s.
async fn until(holds: impl Fn() -> bool, what: &str) {
    let start = js_sys::Date::now();
    while !holds() {
        assert!(js_sys::Date::now() - start < 10_000.0, "waited 10 s for {what}");
        yew::platform::time::sleep(Duration::from_millis(10)).await;
        yew::scheduler::flush().await;
    }
}

/// The page's query string, as the widget last wrote it.
fn search() -> String {
    web_sys::window().unwrap().location().search().unwrap()
}

/// What the widget last wrote to localStorage.
fn stored() -> String {
    storage().get_item("trainer-v2-explorer").unwrap().unwrap_or_default()
}

/// Waits until the widget has written the selection to the address and storage: it does so
/// `ui::browser::PERSIST_MS` after the last change, so a run of clicks writes once.
async fn until_persisted(holds: impl Fn(&str, &str) -> bool, what: &str) {
    until(|| holds(&search(), &stored()), what).await;
}

async fn mounted(attrs: &[(&str, &str)]) -> Element {
    let el = host(attrs);
    ui::mount_one(el.clone()).unwrap();
    settle().await;
    el
}

fn storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

fn q(host: &Element, selector: &str) -> Element {
    host.shadow_root().unwrap().query_selector(selector).unwrap().unwrap_or_else(|| panic!("no {selector}"))
}

fn text(host: &Element, selector: &str) -> String {
    q(host, selector).text_content().unwrap_or_default()
}

fn radio(host: &Element, group: &str, value: &str) -> HtmlElement {
    q(host, &format!(".{group} [data-value=\"{value}\"]")).dyn_into().unwrap()
}

fn checked(host: &Element, group: &str) -> String {
    q(host, &format!(".{group} [aria-checked=\"true\"]")).get_attribute("data-value").unwrap()
}

fn key(target: &HtmlElement, key: &str) {
    let init = KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    init.set_cancelable(true);
    target.dispatch_event(&KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap()).unwrap();
}

/// Types into an `<input>` or `<textarea>` as a reader would: set the value, fire `input`.
async fn type_into(host: &Element, id: &str, value: &str) {
    let field = q(host, &format!("#{id}"));
    js_sys::Reflect::set(&field, &"value".into(), &value.into()).unwrap();
    let init = web_sys::InputEventInit::new();
    init.set_bubbles(true);
    field.dispatch_event(&web_sys::InputEvent::new_with_event_init_dict("input", &init).unwrap()).unwrap();
    settle().await;
}

#[wasm_bindgen_test]
async fn mounting_hides_the_fallback_and_reads_data_defaults() {
    reset("");
    let el = mounted(&[("data-persona", "platform-engineer"), ("data-framework", "deepspeed")]).await;
    // The fallback stays in the light DOM for a failure to bring back, but no slot shows it:
    // it has no box, so neither readers nor screen readers meet it twice.
    let fallback: HtmlElement = el.query_selector("pre").unwrap().expect("the fallback is kept").dyn_into().unwrap();
    assert!(js_sys::Reflect::get(&fallback, &"assignedSlot".into()).unwrap().is_null(), "the fallback is not slotted");
    assert!(fallback.offset_parent().is_none() && fallback.offset_height() == 0, "the fallback is not rendered");
    assert_eq!(checked(&el, "persona"), "platform-engineer");
    assert_eq!(checked(&el, "framework"), "deepspeed");
    assert!(text(&el, ".v2").contains("ClusterTrainingRuntime deepspeed-distributed"));
    assert!(text(&el, ".v1").contains("kind: MPIJob"));
    assert!(q(&el, ".v1").query_selector_all(".ln.o").unwrap().length() > 0, "infrastructure lines are marked");
}

#[wasm_bindgen_test]
async fn an_instance_whose_element_leaves_the_page_stops() {
    reset("");
    let gone = mounted(&[]).await;
    let stays = mounted(&[]).await;
    // What www/element.js does when a host leaves the page.
    gone.remove();
    ui::mount::unmount(&gone);
    settle().await;
    let shadow = gone.shadow_root().unwrap();
    assert!(shadow.query_selector(".tv2x").unwrap().is_none(), "the app is destroyed");
    assert!(shadow.query_selector("slot").unwrap().is_some(), "put back, it would show its fallback");
    radio(&stays, "persona", "platform-engineer").click();
    settle().await;
    assert_eq!(checked(&stays, "persona"), "platform-engineer");
    until_persisted(|_, stored| stored.contains("persona=platform-engineer"), "the persona in storage").await;
    // Put back, the element can be mounted again.
    document().body().unwrap().append_child(&gone).unwrap();
    ui::mount_one(gone.clone()).unwrap();
    settle().await;
    assert_eq!(checked(&gone, "persona"), "platform-engineer", "a new instance reads the shared state");
}

#[wasm_bindgen_test]
async fn an_over_long_host_query_survives_the_widget() {
    let host_query = format!("?q=trainer&state={}&lang=en", "x".repeat(explorer_core::query::MAX_QUERY_LEN));
    reset(&host_query);
    let el = mounted(&[]).await;
    radio(&el, "persona", "platform-engineer").click();
    settle().await;
    assert_eq!(checked(&el, "persona"), "platform-engineer");
    // Storage and the address are written together, so once storage has it the address was written.
    until_persisted(|_, stored| stored.contains("persona=platform-engineer"), "the persona in storage").await;
    assert_eq!(search(), host_query, "replaceState kept the host's query");
}

#[wasm_bindgen_test]
async fn clicking_persona_framework_and_parameters_updates_both_panes() {
    reset("");
    let el = mounted(&[]).await;
    assert!(text(&el, ".v2").contains("name: torch-distributed"));
    radio(&el, "framework", "jax").click();
    settle().await;
    assert!(text(&el, ".v2").contains("name: jax-distributed"));
    assert!(text(&el, ".v1").contains("kind: JAXJob"));
    radio(&el, "persona", "platform-engineer").click();
    settle().await;
    assert!(text(&el, ".v2").contains("kind: ClusterTrainingRuntime"));
    radio(&el, "persona", "data-scientist").click();
    radio(&el, "framework", "pytorch").click();
    settle().await;
    type_into(&el, "p-nodes", "4").await;
    assert!(text(&el, ".v2").contains("numNodes: 4"));
    assert!(text(&el, ".v2").contains("num_nodes=4"));
    assert!(text(&el, ".v1").contains("replicas: 3"));
    assert!(text(&el, ".v1").contains("num_workers=4"));
}

#[wasm_bindgen_test]
async fn a_bad_parameter_shows_a_message_and_keeps_the_yaml_valid() {
    reset("");
    let el = mounted(&[]).await;
    type_into(&el, "p-nodes", "-7").await;
    assert_eq!(q(&el, "#p-nodes").get_attribute("aria-invalid").as_deref(), Some("true"));
    assert!(text(&el, "#p-nodes-msg").contains("from 1 to"));
    assert!(text(&el, ".v2").contains("numNodes: 2"), "the last valid value stays");
    type_into(&el, "p-nodes", "3").await;
    assert!(q(&el, ".params").query_selector("#p-nodes-msg").unwrap().is_none());
    assert!(text(&el, ".v2").contains("numNodes: 3"));
}

#[wasm_bindgen_test]
async fn arrow_keys_home_and_end_move_and_select() {
    reset("");
    let el = mounted(&[]).await;
    let first = radio(&el, "framework", "pytorch");
    first.focus().unwrap();
    key(&first, "ArrowRight");
    settle().await;
    assert_eq!(checked(&el, "framework"), "deepspeed");
    let active = el.shadow_root().unwrap().active_element().unwrap();
    assert_eq!(active.get_attribute("data-value").as_deref(), Some("deepspeed"), "focus follows");
    key(&active.dyn_into().unwrap(), "End");
    settle().await;
    assert_eq!(checked(&el, "framework"), "paddle");
    key(&radio(&el, "framework", "paddle"), "ArrowRight");
    settle().await;
    assert_eq!(checked(&el, "framework"), "pytorch", "wraps around");
    key(&radio(&el, "framework", "pytorch"), "ArrowLeft");
    settle().await;
    assert_eq!(checked(&el, "framework"), "paddle");
    key(&radio(&el, "framework", "paddle"), "Home");
    settle().await;
    assert_eq!(checked(&el, "framework"), "pytorch");
    // Two keys before the widget renders (a fast typist on a busy machine): the second steps from
    // the radio the first moved focus to, not from the selection the last render showed.
    key(&radio(&el, "framework", "pytorch"), "End");
    let focused: HtmlElement = el.shadow_root().unwrap().active_element().unwrap().dyn_into().unwrap();
    key(&focused, "ArrowLeft");
    settle().await;
    let before_paddle = {
        let radios = q(&el, ".framework").children();
        radios.item(radios.length() - 2).unwrap().get_attribute("data-value").unwrap()
    };
    assert_eq!(checked(&el, "framework"), before_paddle, "End then ArrowLeft, both before a render");
    // Roving tabindex: only the checked radio is in the tab order.
    let tabbable = el.shadow_root().unwrap().query_selector_all(".framework [tabindex=\"0\"]").unwrap();
    assert_eq!(tabbable.length(), 1);
}

#[wasm_bindgen_test]
async fn the_trainer_release_is_chosen_by_click_and_keys_and_travels_to_the_url_and_the_other_instances() {
    use explorer_data::releases::{NEWEST, RELEASES};
    reset("");
    let el = mounted(&[]).await;
    let other = mounted(&[]).await;
    let preset = mounted(&[("data-sync", "persona,params"), ("data-compact", "")]).await;
    let group = q(&el, "[role=radiogroup].release");
    assert_eq!(group.get_attribute("aria-label").as_deref(), Some("Trainer release"));
    let lines: Vec<String> = (0..group.children().length())
        .map(|i| group.children().item(i).unwrap().get_attribute("data-value").unwrap())
        .collect();
    assert_eq!(lines, RELEASES.iter().map(|r| r.line).collect::<Vec<_>>(), "one radio per release line, oldest first");
    assert_eq!(checked(&el, "release"), NEWEST.line, "the newest by default");
    let pairs = |el: &Element| text(el, "#release-pairs");
    assert_eq!(pairs(&el), format!("{}, SDK {}", NEWEST.tag, NEWEST.sdk_label()));

    let (older, oldest) = (RELEASES[RELEASES.len() - 2], RELEASES[0]);
    radio(&el, "release", older.line).click();
    settle().await;
    assert_eq!(checked(&el, "release"), older.line);
    assert_eq!(pairs(&el), format!("{}, SDK {}", older.tag, older.sdk_label()), "the paired SDK follows");
    assert_eq!(checked(&other, "release"), older.line, "the other instance follows");
    let wanted = format!("release={}", older.line);
    until_persisted(|search, stored| search.contains(&wanted) && stored.contains(&wanted), "the release written").await;
    let search = search();
    assert!(search.contains(&format!("release={}", older.line)), "{search}");
    assert!(storage().get_item("trainer-v2-explorer").unwrap().unwrap().contains(&format!("release={}", older.line)));
    assert_eq!(explorer_core::query::apply(&search, &Default::default(), Default::default()).0.release, older);

    // Keys: Home picks the oldest and focus follows; End the newest, which leaves the URL.
    let focused = radio(&el, "release", older.line);
    focused.focus().unwrap();
    key(&focused, "Home");
    settle().await;
    assert_eq!(checked(&el, "release"), oldest.line);
    let active = el.shadow_root().unwrap().active_element().unwrap();
    assert_eq!(active.get_attribute("data-value").as_deref(), Some(oldest.line), "focus follows");
    assert_eq!(el.shadow_root().unwrap().query_selector_all(".release [tabindex=\"0\"]").unwrap().length(), 1);
    key(&active.dyn_into().unwrap(), "End");
    settle().await;
    assert_eq!(checked(&el, "release"), NEWEST.line);
    until_persisted(|search, _| !search.contains("release="), "the release left out of the address at the newest")
        .await;

    assert_eq!(checked(&other, "release"), NEWEST.line, "and back");

    // Sync works both ways; a preset stays compact, without a control of its own.
    radio(&other, "release", oldest.line).click();
    settle().await;
    assert_eq!(checked(&el, "release"), oldest.line);
    assert!(preset.shadow_root().unwrap().query_selector(".release").unwrap().is_none(), "presets stay compact");
    let wanted = format!("release={}", oldest.line);
    until_persisted(|_, stored| stored.contains(&wanted), "the oldest release in storage").await;
    let shared = storage().get_item("trainer-v2-explorer").unwrap().unwrap();
    let again = mounted(&[]).await;
    assert_eq!(checked(&again, "release"), oldest.line, "a new instance reads it back: {shared}");
}

/// The code blocks of a pane as the reader sees them (its heading names the release; left out).
fn code_of(host: &Element, pane: &str) -> Vec<String> {
    let blocks = host.shadow_root().unwrap().query_selector_all(&format!(".{pane} pre")).unwrap();
    (0..blocks.length()).map(|i| blocks.item(i).unwrap().text_content().unwrap_or_default()).collect()
}

/// Issue 22 item 10 (a): JAX and XGBoost first shipped with v2.2 (jax-distributed and
/// xgboost-distributed are in v2.2.1's manifests/base/runtimes, not v2.0.1's or v2.1.0's). The
/// reader sees that on the radios before picking. TensorFlow and PaddlePaddle are not marked in
/// any release: their V2 path is the plain-ML runtime `migrate` writes (issue 35).
#[wasm_bindgen_test]
async fn the_framework_radios_mark_what_the_selected_release_lacks_before_the_pick() {
    use explorer_data::releases::NEWEST;
    reset("");
    let el = mounted(&[]).await;
    let marked = |el: &Element| -> Vec<(String, String)> {
        let radios = q(el, "[role=radiogroup].framework").children();
        (0..radios.length())
            .map(|i| radios.item(i).unwrap())
            .filter(|r| r.class_list().contains("lacks"))
            .map(|r| (r.get_attribute("data-value").unwrap(), r.text_content().unwrap()))
            .collect()
    };
    let at_newest = marked(&el);
    assert_eq!(at_newest, Vec::<(String, String)>::new(), "the newest release lacks nothing");
    radio(&el, "release", "v2.0").click();
    settle().await;
    let at_v2_0 = marked(&el);
    assert_eq!(at_v2_0.iter().map(|(f, _)| f.as_str()).collect::<Vec<_>>(), ["jax", "xgboost"]);
    // The mark is part of the radio's text, so its accessible name carries it.
    assert_eq!(at_v2_0[0].1, "JAX not in v2.0", "{at_v2_0:?}");
    assert_eq!(checked(&el, "framework"), "pytorch", "marking picks nothing");
    // Still a choice the reader can make: the V2 pane then says what to do.
    radio(&el, "framework", "jax").click();
    settle().await;
    assert_eq!(checked(&el, "framework"), "jax");
    assert!(text(&el, ".v2 .notice").contains("v2.2"), "{}", text(&el, ".v2"));
    radio(&el, "release", NEWEST.line).click();
    settle().await;
    assert!(!marked(&el).iter().any(|(f, _)| f == "jax"), "the newest ships JAX: {:?}", marked(&el));
}

/// Issue 22 item 10 (b): a release switch that leaves the V2 pane's code as it was says so
/// where the reader clicked; one that changes it says nothing. The oracle is the code on the
/// page before and after the switch.
#[wasm_bindgen_test]
async fn switching_release_says_when_the_v2_code_did_not_change() {
    use explorer_data::releases::RELEASES;
    let (mut same, mut changed) = (0, 0);
    for persona in ["data-scientist", "platform-engineer"] {
        for framework in ["pytorch", "torchtune", "mlx"] {
            reset(&format!("?persona={persona}&framework={framework}"));
            let el = mounted(&[]).await;
            for pair in RELEASES.windows(2).rev() {
                let (from, to) = (pair[1].line, pair[0].line);
                radio(&el, "release", from).click();
                settle().await;
                let before = code_of(&el, "v2");
                radio(&el, "release", to).click();
                settle().await;
                let note = text(&el, ".release-note");
                if !before.is_empty() && code_of(&el, "v2") == before {
                    assert_eq!(note, format!("No change for this job from {from} to {to}."), "{persona} {framework}");
                    same += 1;
                } else {
                    assert_eq!(note, "", "{persona} {framework} {from} to {to}: the V2 code changed");
                    changed += 1;
                }
            }
            // Anything else the reader changes clears it.
            radio(&el, "framework", "deepspeed").click();
            settle().await;
            assert_eq!(text(&el, ".release-note"), "");
        }
    }
    assert!(same > 0 && changed > 0, "both cases met: {same} unchanged, {changed} changed");
}

/// Issue 22 item 10 (c): the V1 pane is the Training Operator v1.9 job; the Trainer release
/// picked for the V2 side must not change it (it changed the image).
#[wasm_bindgen_test]
async fn the_v1_pane_does_not_follow_the_trainer_release() {
    use explorer_data::releases::RELEASES;
    for framework in ["pytorch", "jax", "deepspeed"] {
        reset(&format!("?framework={framework}"));
        let el = mounted(&[]).await;
        let newest = code_of(&el, "v1");
        for release in RELEASES {
            radio(&el, "release", release.line).click();
            settle().await;
            assert_eq!(code_of(&el, "v1"), newest, "{framework}: the V1 pane changed with Trainer {}", release.line);
        }
    }
}

#[wasm_bindgen_test]
async fn the_url_and_storage_round_trip() {
    reset("?utm_source=blog");
    let el = mounted(&[]).await;
    radio(&el, "framework", "xgboost").click();
    settle().await;
    type_into(&el, "p-gpus", "2").await;
    until_persisted(|search, _| search.contains("gpus=2"), "the parameters in the address").await;
    let search = search();
    assert!(search.contains("utm_source=blog"), "host keys survive: {search}");
    assert!(search.contains("framework=xgboost") && search.contains("gpus=2"), "{search}");
    let stored = storage().get_item("trainer-v2-explorer").unwrap();
    assert!(stored.unwrap().contains("framework=xgboost"));

    // A copied link reopens the same view, even with different storage.
    let link = search.clone();
    reset(&link);
    storage().set_item("trainer-v2-explorer", "framework=jax").unwrap();
    let again = mounted(&[("data-framework", "mlx")]).await;
    assert_eq!(checked(&again, "framework"), "xgboost", "URL beats storage and data-*");
    assert!(text(&again, ".v2").contains("nvidia.com/gpu: 2"));

    // Without a URL, storage beats data-*.
    reset("");
    storage().set_item("trainer-v2-explorer", "framework=jax").unwrap();
    let stored_view = mounted(&[("data-framework", "mlx")]).await;
    assert_eq!(checked(&stored_view, "framework"), "jax");
}

#[wasm_bindgen_test]
async fn a_hostile_url_falls_back_to_defaults() {
    reset("?persona=%3Cscript%3Ealert(1)%3C/script%3E&nodes=-7&framework=../../etc");
    let el = mounted(&[]).await;
    assert_eq!(checked(&el, "persona"), "data-scientist");
    assert_eq!(checked(&el, "framework"), "pytorch");
    assert!(text(&el, ".v2").contains("numNodes: 2"));
    assert!(el.shadow_root().unwrap().query_selector("script").unwrap().is_none());
}

#[wasm_bindgen_test]
async fn two_instances_stay_in_sync_and_presets_keep_their_framework() {
    reset("");
    let main = mounted(&[]).await;
    let preset =
        mounted(&[("data-framework", "torchtune"), ("data-sync", "persona,params"), ("data-compact", "")]).await;
    // What each host's loader hears (www/element.js turns each new selection into `change`).
    run_js(
        "window.__heard = [[], []]; document.querySelectorAll('[data-trainer-v2-explorer]').forEach((el, i) => \
         el.addEventListener('trainer-v2-explorer:selected', (e) => __heard[i].push(e.detail)));",
    );
    let heard = |i: u32| -> Vec<String> {
        js_sys::Array::from(&js_sys::Array::from(&run_js("return __heard")).get(i))
            .iter()
            .map(|v| v.as_string().unwrap())
            .collect()
    };
    radio(&main, "persona", "platform-engineer").click();
    settle().await;
    assert_eq!(checked(&preset, "persona"), "platform-engineer");
    // The choice shared into the preset is announced on the preset too (issue 33: its element
    // fires `change`), once, and the main one announces its own once.
    let preset_heard = heard(1);
    assert_eq!(preset_heard.len(), 1, "{preset_heard:?}");
    assert!(preset_heard[0].contains("persona=platform-engineer"), "{preset_heard:?}");
    assert_eq!(heard(0).len(), 1, "{:?}", heard(0));
    radio(&main, "framework", "jax").click();
    settle().await;
    assert_eq!(checked(&preset, "framework"), "torchtune", "a preset keeps its framework");
    assert_eq!(heard(1).len(), 1, "the preset does not share the framework, so it shows nothing new: {:?}", heard(1));
    radio(&preset, "persona", "data-scientist").click();
    settle().await;
    assert_eq!(checked(&main, "persona"), "data-scientist", "sync works both ways");
}

/// A clean page with one widget whose reader just chose the platform engineer: the choice is
/// broadcast (a zero-delay timer, run by now) and stored `ui::browser::PERSIST_MS` later.
async fn a_widget_sharing_a_choice() -> Element {
    reset("");
    let main = mounted(&[]).await;
    radio(&main, "persona", "platform-engineer").click();
    settle().await;
    main
}

#[wasm_bindgen_test]
async fn a_widget_mounted_before_the_page_holds_a_shared_choice_starts_with_it_and_only_then() {
    let main = a_widget_sharing_a_choice().await;
    let early = mounted(&[]).await;
    assert_eq!(checked(&early, "persona"), "platform-engineer", "mounted before (or after) the page stored it");
    until_persisted(|search, _| search.contains("persona=platform-engineer"), "the persona in the address").await;
    // Held by the page now, the choice has no precedence of its own any more: an address set
    // since (a host page's script) beats storage for a widget mounted from here on.
    set_search("?persona=data-scientist");
    let later = mounted(&[]).await;
    assert_eq!(checked(&later, "persona"), "data-scientist", "the address, once the page held the choice");
    assert_eq!(checked(&main, "persona"), "platform-engineer");
}

#[wasm_bindgen_test]
async fn a_shared_choice_its_instance_never_stored_does_not_reach_a_later_mount() {
    a_widget_sharing_a_choice().await;
    // The instance leaves the page before it stored the choice (its timer goes with it), and the
    // next independent mount, in the same task, starts from what the page holds: nothing.
    reset("");
    let fresh = mounted(&[]).await;
    assert_eq!(checked(&fresh, "persona"), "data-scientist");
    yew::platform::time::sleep(Duration::from_millis(u64::from(ui::browser::PERSIST_MS) + 50)).await;
    assert_eq!(stored(), "", "the instance that left stored nothing");
    let after_its_time = mounted(&[]).await;
    assert_eq!(checked(&after_its_time, "persona"), "data-scientist");
}

/// Waits until no preparation slice is scheduled (ui::prepare works at idle time).
async fn until_preparation_rests() {
    until(|| ui::prepare::scheduled() == 0, "preparation to rest").await;
}

#[wasm_bindgen_test]
async fn a_view_prepared_while_the_reader_reads_is_the_one_a_fresh_toggle_builds() {
    reset("");
    let el = mounted(&[]).await;
    // The reader's first change starts preparing what is one click away; then they read.
    radio(&el, "persona", "platform-engineer").click();
    settle().await;
    until_preparation_rests().await;
    for framework in ["xgboost", "mpi"] {
        let (_, views_before, code_before) = ui::prepare::counts();
        radio(&el, "framework", framework).click();
        settle().await;
        let (_, views_after, code_after) = ui::prepare::counts();
        assert_eq!(views_after, views_before + 1, "{framework}: the toggle took its prepared view");
        assert!(code_after > code_before, "{framework}: and prepared <code> elements");
        let prepared = q(&el, ".panes").inner_html();
        // The same selection, built fresh: an instance that starts on it.
        let fresh =
            mounted(&[("data-persona", "platform-engineer"), ("data-framework", framework), ("data-sync", "")]).await;
        assert_eq!(prepared, q(&fresh, ".panes").inner_html(), "{framework}: prepared and fresh views differ");
        fresh.remove();
        ui::mount::unmount(&fresh);
        until_preparation_rests().await;
    }
}

#[wasm_bindgen_test]
async fn idle_preparation_stops_when_the_widget_leaves_the_page() {
    reset("");
    let (before_click, _, _) = ui::prepare::counts();
    let gone = mounted(&[]).await;
    radio(&gone, "framework", "jax").click();
    yew::scheduler::flush().await;
    // What www/element.js does when a host leaves the page.
    gone.remove();
    ui::mount::unmount(&gone);
    settle().await;
    let (at_unmount, _, _) = ui::prepare::counts();
    let neighbours = 8 + 1 + 3 + 1;
    assert!(at_unmount - before_click < neighbours, "the widget left while it still had work");
    assert_eq!(ui::prepare::scheduled(), 0, "no slice is left to run after the widget left");
    // The same on a widget that stays: it does prepare.
    let stays = mounted(&[]).await;
    radio(&stays, "framework", "jax").click();
    settle().await;
    until_preparation_rests().await;
    assert!(ui::prepare::counts().0 > at_unmount, "a widget on the page prepares");
}

/// Runs page script (test fixtures that stand in for browser APIs).
fn run_js(code: &str) -> wasm_bindgen::JsValue {
    js_sys::Function::new_no_args(code).call0(&wasm_bindgen::JsValue::NULL).unwrap()
}

/// Gives the page a clipboard that records what it is given, or refuses, and a `copy` command
/// that refuses (so the textarea fallback cannot copy either).
fn fake_clipboard(accepts: bool) {
    run_js(&format!(
        "window.__copied = null;
         Object.defineProperty(navigator, 'clipboard', {{configurable: true, value: {{
           writeText: (t) => {accepts} ? (window.__copied = t, Promise.resolve()) : Promise.reject(new Error('denied')),
         }}}});
         document.execCommand = () => false;"
    ));
}

/// Waits until the widget announces something in its status region.
async fn announced(host: &Element) -> String {
    until(|| !text(host, "[role=status]").is_empty(), "an announcement").await;
    text(host, "[role=status]")
}

/// Clicks the V2 pane's first copy button with a clipboard that accepts or refuses; returns
/// what the widget announced, the button's label, and the pane's code as shown.
async fn copy_with(accepts: bool) -> (String, String, String) {
    reset("");
    let el = mounted(&[]).await;
    fake_clipboard(accepts);
    let button: HtmlElement = q(&el, ".v2 .copy").dyn_into().unwrap();
    button.click();
    let status = announced(&el).await;
    (status, button.text_content().unwrap(), text(&el, ".v2 pre"))
}

#[wasm_bindgen_test]
async fn the_copy_button_copies_and_announces() {
    let (status, label, shown) = copy_with(true).await;
    assert_eq!(status, "Copied TrainJob");
    assert_eq!(label, "Copied", "the button shows the outcome");
    let copied = run_js("return window.__copied").as_string().expect("the clipboard got text");
    assert!(copied.contains("kind: TrainJob") && copied.trim() == shown.trim(), "copied {copied:?}, shown {shown:?}");
    // A clipboard that refuses: the reader is told to copy by hand, not that it worked.
    let (status, label, _) = copy_with(false).await;
    assert_eq!(status, "Copy failed: select the code and press Ctrl+C");
    assert_eq!(label, "Select and copy");
}

/// The labels of the V2 pane's Copy buttons, first block first.
fn v2_copy_labels(host: &Element) -> Vec<String> {
    let buttons = host.shadow_root().unwrap().query_selector_all(".v2 .copy").unwrap();
    let mut labels = Vec::new();
    for i in 0..buttons.length() {
        labels.push(buttons.item(i).unwrap().text_content().unwrap_or_default());
    }
    labels
}

/// A block's Copy label stays with the block at its place counted from the pane's end, as yew
/// kept a list's components when the code blocks were components (`Blocks` keeps them now), and
/// goes with migrate mode, which shows no blocks.
#[wasm_bindgen_test]
async fn a_copy_label_stays_with_its_block_as_the_pane_grows_and_shrinks() {
    reset("");
    let el = mounted(&[("data-persona", "platform-engineer")]).await;
    fake_clipboard(true);
    q(&el, ".v2 .copy").dyn_into::<HtmlElement>().unwrap().click();
    announced(&el).await;
    assert_eq!(v2_copy_labels(&el), ["Copied"]);
    radio(&el, "persona", "data-scientist").click();
    settle().await;
    assert_eq!(v2_copy_labels(&el), ["Copy", "Copied"], "the new block comes first");
    radio(&el, "persona", "platform-engineer").click();
    settle().await;
    assert_eq!(v2_copy_labels(&el), ["Copied"], "the first block goes");
    radio(&el, "mode", "migrate").click();
    settle().await;
    radio(&el, "mode", "compare").click();
    settle().await;
    assert_eq!(v2_copy_labels(&el), ["Copy"], "migrate mode dropped the label");
}

#[wasm_bindgen_test]
async fn the_widget_works_when_storage_throws() {
    reset("");
    let w = web_sys::window().unwrap();
    js_sys::Reflect::apply(
        &js_sys::Function::new_no_args(
            "window.__savedStorage = Object.getOwnPropertyDescriptor(window, 'localStorage'); \
             Object.defineProperty(window, 'localStorage', { configurable: true, get() { throw new DOMException('denied', 'SecurityError'); } });",
        ),
        &w,
        &js_sys::Array::new(),
    )
    .unwrap();
    let el = mounted(&[("data-framework", "jax")]).await;
    radio(&el, "framework", "mlx").click();
    settle().await;
    assert!(text(&el, ".v2").contains("name: mlx-distributed"));
    js_sys::Reflect::apply(
        &js_sys::Function::new_no_args("Object.defineProperty(window, 'localStorage', window.__savedStorage);"),
        &w,
        &js_sys::Array::new(),
    )
    .unwrap();
}

/// A converter like the one the page's loader hands the widget, with its answer's shape
/// (`{"error"}`, or `{"yaml", "summary", "objects", "html"}` as JSON text): it echoes the text it
/// was given in `objects` and the release it was asked for in `summary`, and answers an error for
/// a text with no `kind:` line. So these tests see which text and release the widget asks about and
/// which answer it shows. The real converter module is tested natively (crates/html, tests/) and
/// in the widget on the built site (tests/e2e: converter, migrate-release, reader-path); it is not
/// linked here, so the widget's test build compiles no YAML parser and no CEL.
fn echo_converter() -> js_sys::Function {
    js_sys::Function::new_no_args(
        "const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
         return (text, release) => JSON.stringify(/^kind: \\w+$/m.test(text)
           ? { error: null, yaml: text, summary: `<p class=\"echo-release\">for ${esc(release)}</p>`,
               objects: `<pre class=\"echo-text\">${esc(text)}</pre>`, html: '<p>report</p>' }
           : { error: `line 1: no kind in ${text.length} characters` });",
    )
    .call0(&wasm_bindgen::JsValue::NULL)
    .unwrap()
    .unchecked_into()
}

fn install_converter() {
    ui::set_migrator(echo_converter());
}

/// Types into the migrate text area, then waits until the converter's answer is shown.
async fn type_text(host: &Element, id: &str, value: &str) {
    type_into(host, id, value).await;
    until_converted(host).await;
}

/// Waits until the migrate view shows an answer rather than "Converting…".
async fn until_converted(host: &Element) {
    let working = || host.shadow_root().unwrap().query_selector(".migrate-result .msg-working").unwrap().is_some();
    until(|| !working(), "the converter's answer").await;
}

#[wasm_bindgen_test]
async fn migrate_mode_converts_the_selected_job_then_each_pasted_text() {
    use explorer_data::releases::NEWEST;
    reset("?mode=migrate&framework=jax");
    install_converter();
    let el = mounted(&[]).await;
    assert_eq!(checked(&el, "mode"), "migrate");
    until_converted(&el).await;
    // It starts from the selected framework's V1 job, converted for the newest release.
    let result = text(&el, ".migrate-result");
    assert!(result.contains("kind: JAXJob"), "{result}");
    assert_eq!(text(&el, ".echo-release"), format!("for {}", NEWEST.line));

    let pasted = "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: p}\nspec:\n  elasticPolicy: {maxReplicas: 3}\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 3\n      template: {spec: {containers: [{name: pytorch, image: a:1}]}}\n";
    type_text(&el, "m-input", pasted).await;
    assert_eq!(text(&el, ".echo-text"), pasted, "the answer for the pasted text, as the converter gave it");
}

#[wasm_bindgen_test]
async fn migrate_mode_shows_the_converters_error_and_then_the_next_answer() {
    reset("?mode=migrate");
    install_converter();
    let el = mounted(&[]).await;
    type_text(&el, "m-input", "kind: [unclosed\n  x: 1").await;
    assert_eq!(text(&el, ".migrate-result [role=alert]"), "line 1: no kind in 22 characters");
    type_text(&el, "m-input", "apiVersion: kubeflow.org/v1\nkind: TFJob\nmetadata: {name: tf}\n").await;
    assert!(q(&el, ".migrate-result").query_selector("[role=alert]").unwrap().is_none());
    assert!(text(&el, ".echo-text").contains("name: tf"), "{}", text(&el, ".migrate-result"));
}

#[wasm_bindgen_test]
async fn a_bidi_control_quoted_in_the_converters_error_is_shown_not_obeyed() {
    // A converter whose message quotes the input, as the real one quotes a name or a kind.
    reset("?mode=migrate");
    ui::set_migrator(
        js_sys::Function::new_no_args(
            "return (text) => JSON.stringify({ error: `unknown kind ${text.split('kind: ')[1] ?? ''}` });",
        )
        .call0(&wasm_bindgen::JsValue::NULL)
        .unwrap()
        .unchecked_into(),
    );
    let el = mounted(&[]).await;
    type_text(&el, "m-input", "kind: Job\u{202e}bojhcroTyP\u{2066}x\u{2069}").await;
    let shown = text(&el, ".migrate-result [role=alert]");
    assert_eq!(shown, "unknown kind Job\\u{202e}bojhcroTyP\\u{2066}x\\u{2069}");
    assert!(!shown.chars().any(explorer_core::terminal::is_bidi_control), "{shown:?}");
}

#[wasm_bindgen_test]
async fn an_answer_for_text_that_was_replaced_is_not_shown() {
    // The converter runs in a worker while the reader types on: make the first answer arrive
    // after the second, as a large paste followed by a quick edit would.
    reset("?mode=migrate");
    let delayed = js_sys::Function::new_with_args(
        "convert",
        "return (text, release) => {
           const answer = convert(text, release);
           const slow = text.includes('slow');
           if (slow) window.__slowAsked = true;
           return new Promise((resolve) => setTimeout(() => { resolve(answer); if (slow) window.__slowAnswered = true; }, slow ? 700 : 0));
         };",
    );
    ui::set_migrator(delayed.call1(&wasm_bindgen::JsValue::NULL, &echo_converter()).unwrap().unchecked_into());
    let el = mounted(&[]).await;
    let job = |name: &str| {
        format!("apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {{name: {name}}}\nspec:\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 1\n      template: {{spec: {{containers: [{{name: pytorch, image: a:1}}]}}}}\n")
    };
    run_js("window.__slowAsked = false; window.__slowAnswered = false");
    type_into(&el, "m-input", &job("slow")).await;
    // Asked for (the debounce has passed); its answer is 700 ms away.
    until(|| run_js("return window.__slowAsked === true").as_bool() == Some(true), "the slow request").await;
    type_text(&el, "m-input", &job("fast")).await;
    // The late answer for the replaced text has arrived (and had its chance to be shown).
    until(|| run_js("return window.__slowAnswered === true").as_bool() == Some(true), "the slow answer").await;
    settle().await;
    let result = text(&el, ".migrate-result");
    assert!(result.contains("name: fast") && !result.contains("name: slow"), "{result}");
}

/// `<trainer-v2-explorer>` takes the mount point's options as plain attributes; an option changed
/// after mount (www/element.js sends it as an options event) applies; the selection it shows
/// goes out on the host, on mount and on every change.
#[wasm_bindgen_test]
async fn the_element_reads_plain_attributes_and_follows_option_changes() {
    reset("");
    let el = document().create_element("trainer-v2-explorer").unwrap();
    for (k, v) in [("persona", "platform-engineer"), ("framework", "jax"), ("compact", ""), ("sync", "")] {
        el.set_attribute(k, v).unwrap();
    }
    // A data-* option on the element is not one of its options.
    el.set_attribute("data-framework", "xgboost").unwrap();
    document().body().unwrap().append_child(&el).unwrap();
    run_js("window.__selected = []; document.querySelector('trainer-v2-explorer').addEventListener('trainer-v2-explorer:selected', (e) => __selected.push(e.detail));");
    ui::mount_one(el.clone()).unwrap();
    settle().await;
    assert_eq!(checked(&el, "persona"), "platform-engineer");
    assert_eq!(checked(&el, "framework"), "jax");
    assert!(q(&el, ".tv2x").class_list().contains("compact"), "compact as a plain attribute");
    let options = web_sys::CustomEventInit::new();
    options.set_detail(&"framework=deepspeed".into());
    let event = web_sys::CustomEvent::new_with_event_init_dict("trainer-v2-explorer:options", &options).unwrap();
    el.dispatch_event(&event).unwrap();
    settle().await;
    assert_eq!(checked(&el, "framework"), "deepspeed", "an option changed after mount applies");
    assert_eq!(checked(&el, "persona"), "platform-engineer", "and leaves the others");
    let selected: Vec<String> =
        js_sys::Array::from(&run_js("return __selected")).iter().map(|v| v.as_string().unwrap()).collect();
    assert_eq!(selected.len(), 2, "{selected:?}");
    assert!(selected[0].contains("framework=jax") && selected[0].contains("persona=platform-engineer"), "{selected:?}");
    assert!(selected[1].contains("framework=deepspeed"), "{selected:?}");
    el.remove();
    ui::mount::unmount(&el);
    assert!(!el.has_attribute("data-trainer-v2-explorer-mounted"));
}

#[wasm_bindgen_test]
fn the_download_size_reads_as_a_float_printer_would_write_it() {
    use trainer_v2_explorer::ui::components::migrate::megabytes;
    // Every remainder class around the rounding points, at several magnitudes: the same text as
    // `{:.1}` of the float (an exact half rounds up; the float printer may round it either way).
    for base in [0u64, 1_000_000, 1_234_567_000, 99_900_000] {
        for bytes in (base..base + 2_000_000).step_by(997).chain([base, base + 49_999, base + 50_001, base + 99_999]) {
            if bytes % 100_000 == 50_000 {
                continue;
            }
            assert_eq!(megabytes(bytes), format!("{:.1} MB", bytes as f64 / 1e6), "{bytes} bytes");
        }
    }
    assert_eq!(megabytes(1_250_000), "1.3 MB");
    assert_eq!(megabytes(0), "0.0 MB");
}
