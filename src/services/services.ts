import type { Store } from '../store/store.ts';
import type { Providers } from '../providers/factory.ts';
import type { Logger } from '../logger.ts';
import { createCredentialService, type CredentialService } from './credentials.ts';
import { createPurchaseService, type PurchaseService } from './purchases.ts';
import { createCatalogueService, type CatalogueService } from './catalogue.ts';
import { createPinService, type PinService } from './pin.ts';

/** The product's use cases, shared by the bot and the background jobs. */
export interface Services {
  credentials: CredentialService;
  purchases: PurchaseService;
  catalogue: CatalogueService;
  pin: PinService;
}

export function createServices(deps: { store: Store; providers: Providers; logger: Logger; now: () => Date }): Services {
  const credentials = createCredentialService(deps.store, deps.providers);
  return {
    credentials,
    purchases: createPurchaseService({ ...deps, credentials }),
    catalogue: createCatalogueService({ providers: deps.providers, credentials, now: deps.now }),
    pin: createPinService({ store: deps.store, now: deps.now }),
  };
}
