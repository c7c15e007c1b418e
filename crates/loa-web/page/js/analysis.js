// @ts-check
// The analysis socket: one search at a time, replaced by each new request.

import { socketUrl } from './api.js';

/** @typedef {import('./types.js').AnalysisMessage} AnalysisMessage */

export class Analysis {
  /** @param {(message: AnalysisMessage) => void} onInfo */
  constructor(onInfo) {
    this.onInfo = onInfo;
    /** @type {WebSocket | null} */
    this.socket = null;
    /** A request made while the socket opens. @type {object | null} */
    this.queued = null;
    /** The request running, to send it once. @type {string | null} */
    this.key = null;
  }

  /**
   * Analyses a line's last position, unless that is what runs.
   * @param {{ variant: string, rules: string, position: string, moves: string[] }} body
   */
  request(body) {
    const key = JSON.stringify(body);
    if (key === this.key) return;
    this.key = key;
    this.send(body);
  }

  /** @param {object} body */
  send(body) {
    if (!this.socket || this.socket.readyState > 1) {
      const socket = new WebSocket(socketUrl('/api/analysis'));
      socket.onmessage = (e) => this.onInfo(JSON.parse(e.data));
      socket.onclose = () => { this.socket = null; this.key = null; };
      this.socket = socket;
    }
    const socket = this.socket;
    if (socket.readyState === 0) {
      this.queued = body;
      socket.onopen = () => { if (this.queued) socket.send(JSON.stringify(this.queued)); this.queued = null; };
    } else {
      socket.send(JSON.stringify(body));
    }
  }

  stop() {
    this.key = null;
    if (this.socket) {
      this.socket.close();
      this.socket = null;
    }
  }
}
