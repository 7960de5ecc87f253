import { InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import { serviceNames, type ServiceName } from '../../domain.ts';
import { connectData, disconnectData } from '../callback-data/connect.ts';
import { raw } from '../../text/html.ts';

/** The service picker of /connect: one button per service offered (default all), then Cancel. */
export function createServicePickerKeyboard(t: TranslateFunction, services: readonly ServiceName[] = serviceNames): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  for (const service of services) {
    keyboard
      .text(t('connect-button-service', { service: raw(t(`service-${service}`)) }), connectData.pack({ action: 'pick', service }))
      .row();
  }
  return keyboard.text(t('button-cancel'), connectData.pack({ action: 'cancel', service: '-' }));
}

/** Under "already connected": replace the credentials, or leave them. */
export function createReplaceKeyboard(t: TranslateFunction, service: ServiceName): InlineKeyboard {
  return new InlineKeyboard()
    .text(t('connect-button-replace'), connectData.pack({ action: 'replace', service }))
    .text(t('button-cancel'), connectData.pack({ action: 'cancel', service: '-' }));
}

/**
 * Under a credential prompt: stop the flow. It names the service (the picker's Cancel does not),
 * so a tap that reaches no conversation is known to come from a stale prompt.
 */
export function createConnectCancelKeyboard(t: TranslateFunction, service: ServiceName): InlineKeyboard {
  return new InlineKeyboard().text(t('button-cancel'), connectData.pack({ action: 'cancel', service }));
}

/** Under a failed check: start over for the same service. */
export function createConnectRetryKeyboard(t: TranslateFunction, service: ServiceName): InlineKeyboard {
  return new InlineKeyboard().text(t('connect-button-retry'), connectData.pack({ action: 'pick', service }));
}

/** The /disconnect picker: one button per connected service (with its label), then Cancel. */
export function createDisconnectPickerKeyboard(
  t: TranslateFunction,
  connected: ReadonlyArray<{ service: ServiceName; label: string }>,
): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  for (const { service, label } of connected) {
    keyboard
      .text(
        t('disconnect-button-service', { service: raw(t(`service-${service}`)), label: raw(label) }),
        disconnectData.pack({ action: 'pick', service }),
      )
      .row();
  }
  return keyboard.text(t('button-cancel'), disconnectData.pack({ action: 'keep', service: '-' }));
}

/** Under "Disconnect X?": yes or keep it. */
export function createDisconnectConfirmKeyboard(t: TranslateFunction, service: ServiceName): InlineKeyboard {
  return new InlineKeyboard()
    .text(t('disconnect-button-confirm'), disconnectData.pack({ action: 'confirm', service }))
    .text(t('disconnect-button-keep'), disconnectData.pack({ action: 'keep', service }));
}

/** The service named in callback data, when it is one we know. */
export function parseServiceName(value: string): ServiceName | undefined {
  return (serviceNames as readonly string[]).includes(value) ? (value as ServiceName) : undefined;
}
