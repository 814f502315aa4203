import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { RESOURCE_KIT_OPTIONS, type ResolvedKitOptions } from '../resource-kit.options';

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  413: 'Payload Too Large',
  431: 'Request Header Fields Too Large',
};

/**
 * Requests that Node's HTTP parser refuses (oversized headers, malformed request lines) never
 * reach Nest; this answers them in the error envelope too, instead of a bare socket close.
 */
@Injectable()
export class ClientErrorResponder implements OnApplicationBootstrap {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(RESOURCE_KIT_OPTIONS) private readonly options: ResolvedKitOptions,
  ) {}

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    server?.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) =>
      this.answer(error, socket),
    );
  }

  private answer(error: NodeJS.ErrnoException, socket: Duplex): void {
    if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy();
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const body = JSON.stringify({
      [this.options.errorKey]: [
        status === 431 ? 'the request headers are too large' : 'the request is malformed',
      ],
    });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
}
