import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { conflict, invalidInput, ResourceInput, ResourceService } from '@app/resource-kit';
import { ReceiverPolicy } from './receiver-address';
import { WebhookEndpoint } from './webhook-endpoint.entity';

/**
 * Endpoints are checked where they point before they are stored (https, no private address
 * unless allowed, a subject type that exists) and get their signing secret on create.
 */
@Injectable()
export class WebhookEndpointsService extends ResourceService<WebhookEndpoint> {
  constructor(private readonly receivers: ReceiverPolicy) {
    super();
  }

  protected override async prepareCreate(input: ResourceInput): Promise<Partial<WebhookEndpoint>> {
    await this.assertDeliverable(input);
    // Standard Webhooks: `whsec_` and the base64 of 24 to 64 random bytes.
    return { status: 'active', secret: `whsec_${randomBytes(32).toString('base64')}` };
  }

  // Set active again, an endpoint starts its five days of failures afresh.
  protected override async prepareUpdate(
    _current: WebhookEndpoint,
    changes: ResourceInput,
  ): Promise<Partial<WebhookEndpoint> | void> {
    await this.assertDeliverable(changes);
    if (changes.get('status') === 'active') return { failingSince: null };
  }

  // The secret is kept (it signs every delivery), so a repeated create answers it again.
  protected override async replayCreate(
    data: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const repository = this.dataSource.getRepository(WebhookEndpoint);
    const endpoint = await repository.findOneBy({ id: data.id as string });
    if (!endpoint) {
      throw conflict('this request succeeded, but the endpoint it created has been deleted since');
    }
    return { ...data, secret: endpoint.secret };
  }

  private async assertDeliverable(input: ResourceInput): Promise<void> {
    const problems: string[] = [];
    const url = input.get('url') as string | undefined;
    if (url !== undefined) {
      const problem =
        this.receivers.urlProblem(url) ??
        (await this.receivers.addressProblem(new URL(url).hostname));
      if (problem) problems.push(`data.url ${problem}`);
    }
    const type = input.get('subjectType') as string | null | undefined;
    if (type && !this.registry.serviceOfType(type)) {
      const types = this.registry.definitions().map((definition) => definition.type);
      problems.push(`data.subject_type must be one of ${types.sort().join(', ')}`);
    }
    if (problems.length > 0) throw invalidInput(problems);
  }
}
