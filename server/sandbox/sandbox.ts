import { Clock } from './clock';
import { EventBus } from './events';
import { buildSeed } from './seed';
import type { ContractIndex } from './domain/contract-index';
import { contractIndex } from './domain/contract-index';
import { CursorCodec } from './http/cursor';
import { notFound } from './http/errors';
import { IdempotencyStore } from './http/idempotency';
import { RateLimiter } from './http/rate-limit';
import type { SandboxOptions } from './options';
import { createState } from './store/create-state';
import { Persister, loadState } from './store/persist';
import type { ApplicationRec, BusinessRec, State } from './store/types';
import { sandboxUrls, type SandboxUrls } from './urls';

/** The sandbox's state and services, shared by every handler of one server. */
export class Sandbox {
  state: State;
  readonly codec: CursorCodec;
  readonly idempotency = new IdempotencyStore(undefined, () => this.changed());
  readonly limiter = new RateLimiter();
  readonly clock = new Clock();
  readonly events = new EventBus();
  readonly persister: Persister;
  urls: SandboxUrls;

  constructor(readonly options: SandboxOptions) {
    const saved = options.dataFile ? loadState(options.dataFile) : null;
    this.state = saved || this.freshState();
    // The keys travel in the data file beside the state, not in it: handlers never see them.
    this.idempotency.load(saved?.idempotency);
    delete this.state.idempotency;
    this.codec = new CursorCodec(options.secret);
    this.persister = new Persister(options.dataFile, () => ({ ...this.state, idempotency: this.idempotency.saved() }));
    this.urls = sandboxUrls(options.publicOrigin ?? `http://${options.host}:${options.port}`);
  }

  private freshState() {
    const seed = buildSeed();
    if (this.options.seed === 'empty') seed.businesses = [];
    return createState(seed, new Date());
  }

  setOrigin(origin: string) {
    this.urls = sandboxUrls(origin);
  }

  now() {
    return new Date().toISOString();
  }

  /** Called after every state change: persists (coalesced) when a data file is configured. */
  changed() {
    this.persister.schedule();
  }

  reset() {
    this.state = this.freshState();
    this.changed();
  }

  business(id: string): BusinessRec {
    const b = this.state.businesses[id];
    if (!b) throw notFound('business');
    return b;
  }

  application(id: string): ApplicationRec {
    const a = this.state.applications[id];
    if (!a) throw notFound('application');
    return a;
  }

  index(app: ApplicationRec): ContractIndex {
    const template = this.state.contracts[app.contract_version];
    if (!template) throw new Error(`contract ${app.contract_version} is missing from the sandbox state`);
    return contractIndex(template);
  }
}
