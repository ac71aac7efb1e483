import type { FileView } from '@/lib/bff/files';
import {
  autosaveMachine,
  computeVisibility,
  equalityFor,
  formValidator,
  sendableCheck,
  updateVisibility,
  type AutosaveMachine,
  type AutosaveState,
  type FormItem,
  type FormModel,
  type FormValidator,
  type FormValue,
  type FormValues,
  type UpstreamState,
  type VisibilityState,
} from '@/lib/forms';
import { groupFiles } from '@/lib/forms/file-values';

/** The state a form is opened with: the values, items and files as read, and the upstream they came from. */
export interface RuntimeInit {
  values: FormValues;
  items: readonly FormItem[];
  files: readonly FileView[];
  upstream: UpstreamState;
}

const PROGRESS_DELAY_MS = 300;

/**
 * The live state of one open form and who listens to it: the values as typed (a flat mirror of the inputs),
 * repeatable items, attached files, visibility and the autosave state, with what the model gives them (its
 * validator, what may be sent, the autosave machine). Components subscribe to the slice they show
 * (components/intake-form/runtime-context's useRuntime), so a keystroke re-renders only what it changes.
 */
export class RuntimeState {
  model!: FormModel;
  validator!: FormValidator;
  /** Whether a value may be autosaved (lib/forms/validation's sendableCheck). */
  canSend!: (name: string, value: FormValue) => boolean;
  machine!: AutosaveMachine;
  values: Record<string, FormValue>;
  items: readonly FormItem[];
  visibility: VisibilityState;
  files: ReadonlyMap<string, readonly FileView[]>;
  autosave: AutosaveState;
  /** Bumped on every change, so selectors can tell whether to recompute. */
  version = 0;
  /**
   * Bumped a moment after a burst of changes: counting a 1,000-field form's progress on every keystroke
   * would cost more than the keystroke itself, and nobody reads the counts mid-word.
   */
  progressVersion = 0;
  private listeners = new Set<() => void>();
  private progressTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(model: FormModel, init: RuntimeInit) {
    this.useModel(model);
    this.values = { ...init.values };
    this.items = init.items;
    this.files = groupFiles(init.files);
    for (const [name, list] of this.files) this.values[name] = list.map((f) => f.id);
    this.visibility = computeVisibility(model, this.values, this.items);
    this.autosave = this.machine.init(init.upstream);
  }

  /** The model the page works with: the opening section's, then once the whole contract's (upgrade). */
  protected useModel(model: FormModel) {
    this.model = model;
    this.validator = formValidator(model);
    this.canSend = sendableCheck(model);
    this.machine = autosaveMachine({ equal: equalityFor(model), canSend: this.canSend });
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Something subscribers show changed. */
  changed() {
    this.version++;
    this.notify();
    // Each change pushes the count back: it runs in the pause after a burst of typing, never between two
    // keystrokes of it (counting a large form and re-rendering the section list take milliseconds).
    if (this.progressTimer) clearTimeout(this.progressTimer);
    this.progressTimer = setTimeout(() => {
      this.progressTimer = null;
      this.progressVersion = this.version;
      this.notify();
    }, PROGRESS_DELAY_MS);
  }

  private notify() {
    for (const l of [...this.listeners]) l();
  }

  /** No count after the page is gone. */
  protected stopProgress() {
    if (this.progressTimer) clearTimeout(this.progressTimer);
    this.progressTimer = null;
  }

  /** Visibility after the items changed (or many values at once). */
  recomputeVisibility() {
    this.visibility = computeVisibility(this.model, this.values, this.items);
  }

  /** Values that changed go into the mirror, and visibility follows the questions that read them. */
  setValues(values: FormValues) {
    Object.assign(this.values, values);
    this.visibility = updateVisibility(this.visibility, this.values, Object.keys(values));
  }
}
