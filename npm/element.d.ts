/** A persona: who the example is written for. */
export type Persona = 'platform-engineer' | 'data-scientist';
/** A Trainer V2 release line. */
export type Release = 'v2.0' | 'v2.1' | 'v2.2' | 'v2.3';
/** The selection an element shows, with its options' names and values (all strings, as in a URL). */
export interface TrainerV2Selection {
  persona?: string;
  framework?: string;
  scope?: string;
  mode?: string;
  release?: string;
  name?: string;
  namespace?: string;
  nodes?: string;
  gpus?: string;
  procs?: string;
  image?: string;
  queue?: string;
  model?: string;
  dataset?: string;
  [option: string]: string | undefined;
}

/** The options that make the selection, in the order of the URL's query. */
export declare const SELECTION_OPTIONS: readonly string[];

/**
 * `<trainer-v2-explorer persona="data-scientist" framework="jax" release="v2.3" compact>`.
 * Its light-DOM children are the static fallback, shown until the widget mounts and again if it
 * fails. Fires `change` (bubbling, composed) with the selection as `detail` when the reader or
 * an attribute changes the selection in it.
 */
export declare class TrainerV2Explorer extends HTMLElement {
  static readonly observedAttributes: string[];
  /** Where the widget's files (pkg/, pkg-migrate/) are served when not next to element.js: a URL
   * of the page's choosing, set before the first element mounts. */
  static assets: string | null;
  /** The selection as of the element's last `change` (or its mount); null before it mounted. */
  readonly selection: TrainerV2Selection | null;
  persona: Persona | string | null;
  framework: string | null;
  scope: 'cluster' | 'namespaced' | string | null;
  mode: 'compare' | 'migrate' | string | null;
  release: Release | string | null;
  name: string | null;
  namespace: string | null;
  nodes: string | null;
  gpus: string | null;
  procs: string | null;
  image: string | null;
  queue: string | null;
  model: string | null;
  dataset: string | null;
  /** Which parts of the selection this element shares with the others on the page, the URL and storage. */
  sync: string | null;
  /** `light` or `dark` pins the theme; `auto` or null follows the page. */
  theme: 'light' | 'dark' | 'auto' | string | null;
  /** Only persona and framework, no other controls. */
  compact: boolean;
  addEventListener<K extends keyof TrainerV2ExplorerEventMap>(
    type: K,
    listener: (this: TrainerV2Explorer, ev: TrainerV2ExplorerEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
}

export interface TrainerV2ExplorerEventMap extends HTMLElementEventMap {
  change: CustomEvent<TrainerV2Selection>;
}

/** Starts a host as an explorer (what the element does when connected). */
export declare function attach(host: Element): void;
/** Stops the explorer in a host and shows its fallback again. */
export declare function detach(host: Element): void;
/** Attaches every [data-trainer-v2-explorer] mount point on the page, now and as they are added. */
export declare function watchMountPoints(): void;

/** The attribute that makes an element a mount point (`<div data-trainer-v2-explorer>`). */
export declare const ALIAS: string;
/** The attribute a host carries once its widget has mounted. */
export declare const MOUNTED: string;
/** The attribute a host carries when its widget failed and its static fallback shows. */
export declare const FAILED: string;
/** Whether a host is laid out near enough to the viewport to mount at once. */
export declare function near(host: Element): boolean;
