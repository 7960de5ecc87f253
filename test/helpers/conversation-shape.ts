/**
 * The shape of a stored conversation state, as the conversations plugin replays it: the kinds of
 * its logged operations (waits, `external` calls, Bot API calls) in order, the shape of what each
 * `external` returned and of the arguments the flow was entered with. No value, id, time or
 * secret: two runs of the same flow on the same path give the same shape, and a change in the
 * flow's code that an old stored state would replay wrongly gives another.
 */
import type { ConversationData, VersionedState } from '@grammyjs/conversations';

/** The structure of a JSON value: types and object keys, no values (array elements merged). */
export function skeleton(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${[...new Set(value.map(skeleton))].sort().join('|')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${key}:${skeleton(inner)}`).join(',')}}`;
  }
  return typeof value;
}

/**
 * What an `external` call left in the log: the skeleton of its value (unwrapped from the plugin's
 * `{ ok, ret }`), or `throws` and the skeleton of the stored error.
 */
function externalResult(result: unknown): string {
  if (result !== null && typeof result === 'object' && 'ok' in result) {
    if (result.ok === true) return 'ret' in result ? skeleton(result.ret) : 'void';
    if (result.ok === false) return `throws ${skeleton('err' in result ? result.err : undefined)}`;
  }
  return skeleton(result);
}

/**
 * One logged operation: its kind (a wait's collation key, `external`, or the Bot API method),
 * digits in keys such as `from-<id>` masked; an `external` carries the skeleton of its result.
 */
function operationShape(payload: string, result: unknown, resolved: boolean): string {
  const kind = payload.replace(/\d+/g, '#');
  return kind === 'external' && resolved ? `external→${externalResult(result)}` : kind;
}

/** Consecutive equal entries written once with a count: `sendMessage×3`. */
function collapse(items: string[]): string[] {
  const out: Array<{ item: string; count: number }> = [];
  for (const item of items) {
    const last = out.at(-1);
    if (last?.item === item) last.count += 1;
    else out.push({ item, count: 1 });
  }
  return out.map(({ item, count }) => (count === 1 ? item : `${item}×${count}`));
}

/** One running conversation in a stored state. */
interface InstanceShape {
  /** `id#n`: the conversation id and the instance's place among that id's parallel instances. */
  name: string;
  args: string;
  operations: string[];
  pending: number;
}

function instancesOf(stored: VersionedState<ConversationData>): InstanceShape[] {
  return Object.keys(stored.state)
    .sort()
    .flatMap((id) =>
      (stored.state[id] ?? []).map((instance, index) => {
        const results = new Map(instance.replay.receive.map((op) => [op.send, op.returnValue]));
        return {
          name: index === 0 ? id : `${id}#${index}`,
          args: instance.args === undefined ? '' : skeleton(JSON.parse(instance.args)),
          operations: instance.replay.send.map((op, at) => operationShape(op.payload, results.get(at), results.has(at))),
          pending: instance.interrupts.length,
        };
      }),
    );
}

const isPrefix = (before: string[], after: string[]) => before.length <= after.length && before.every((op, i) => op === after[i]);

/**
 * The shapes of the states stored after each step of one chat: `ended` when nothing is stored
 * (the flow is over); otherwise per running conversation its operations since the previous step
 * (`+ …`, the log grows at its end) or, for a conversation just entered or a log that was
 * rewritten, its arguments and whole log (`(args) = …`), and how many waits are pending.
 */
export function stepShapes(states: Array<VersionedState<ConversationData> | undefined>): string[] {
  let previous: InstanceShape[] = [];
  return states.map((stored) => {
    if (stored === undefined) {
      previous = [];
      return 'ended';
    }
    const current = instancesOf(stored);
    const shape = current
      .map((instance) => {
        const before = previous.find((p) => p.name === instance.name && p.args === instance.args);
        const log =
          before && isPrefix(before.operations, instance.operations)
            ? `+ ${collapse(instance.operations.slice(before.operations.length)).join(' ')}`
            : `(${instance.args}) = ${collapse(instance.operations).join(' ')}`;
        return `${instance.name} ${log} | pending ${instance.pending}`;
      })
      .join(' ; ');
    previous = current;
    return shape;
  });
}
