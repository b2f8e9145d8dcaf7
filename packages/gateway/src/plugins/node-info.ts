// What kong.node.get_id() and get_hostname() give plugins (request-termination's echo): the
// node's id, set once per process at start (a node's workers share their primary's), and the host name.
import { hostname } from 'node:os';

let id = '';

/** Sets this node's id (cluster/: the primary's, passed to its workers). */
export function setNodeId(nodeId: string): void {
  id = nodeId;
}

/** kong.node.get_id(), get_hostname(). */
export function nodeInfo(): { readonly id: string; readonly hostname: string } {
  return { id, hostname: hostname() };
}
