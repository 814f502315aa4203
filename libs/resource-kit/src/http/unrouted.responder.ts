import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Express, Response } from 'express';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { RESOURCE_KIT_OPTIONS, type ResolvedKitOptions } from '../resource-kit.options';
import { writeFailure } from './answer';

// No framework middleware runs for these answers: the headers every JSON error deserves
// (no sniffing, no framing, nothing loaded, no referrer) are written here.
const RAW_ANSWER_HEADERS =
  'X-Content-Type-Options: nosniff\r\n' +
  "Content-Security-Policy: default-src 'none';frame-ancestors 'none'\r\n" +
  'X-Frame-Options: DENY\r\nReferrer-Policy: no-referrer\r\n';

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  431: 'Request Header Fields Too Large',
};

/**
 * Answers in the error envelope what never reaches a Nest route: requests that Node's HTTP
 * parser refuses (oversized headers, malformed request lines), and paths outside the
 * service's global prefix (which Express would answer in HTML).
 */
@Injectable()
export class UnroutedResponder implements OnApplicationBootstrap {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(RESOURCE_KIT_OPTIONS) private readonly options: ResolvedKitOptions,
  ) {}

  onApplicationBootstrap(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter) return;
    const server = adapter.getHttpServer() as Server;
    server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) =>
      this.answer(error, socket),
    );
    // Bootstrap hooks run after Nest has registered its routes: this handler comes last.
    adapter.getInstance<Express>().use((_request: unknown, response: Response) => {
      writeFailure(response, { status: 404, messages: ['no such path'] }, this.options.errorKey);
    });
  }

  private answer(error: NodeJS.ErrnoException, socket: Duplex): void {
    if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy();
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const message =
      status === 431 ? 'the request headers are too large' : 'the request is malformed';
    const body = JSON.stringify({ [this.options.errorKey]: [message] });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Type: application/json\r\n` +
        RAW_ANSWER_HEADERS +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
}
