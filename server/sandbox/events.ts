import { EventEmitter } from 'node:events';

/** Event types of DESIGN.md §5 (project events: §6), emitted by the operations that cause them. */
export type EventType =
  | 'business.created'
  | 'business.stage_changed'
  | 'application.answers_updated'
  | 'application.submitted'
  | 'autofill_run.completed'
  | 'autofill_run.failed'
  | 'deal.created'
  | 'deal.stage_changed'
  | 'deal_application.submitted'
  | 'project.created'
  | 'project.criteria_updated'
  | 'match_run.progress'
  | 'match_run.completed'
  | 'match_run.failed';

export interface SandboxEvent {
  type: EventType;
  timestamp: string;
  data: Record<string, unknown>;
}

/** In-process bus: operations publish, the webhook deliverer (and tests) subscribe. */
export class EventBus {
  private readonly emitter = new EventEmitter();

  publish(type: EventType, data: Record<string, unknown>) {
    const event: SandboxEvent = { type, timestamp: new Date().toISOString(), data };
    this.emitter.emit('event', event);
  }

  subscribe(fn: (e: SandboxEvent) => void) {
    this.emitter.on('event', fn);
    return () => this.emitter.off('event', fn);
  }
}
