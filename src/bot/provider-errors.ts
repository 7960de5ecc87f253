import type { ProviderErrorJson } from '../services/providers.ts';
import type { TranslateFunction } from '@grammyjs/i18n';
import { escapeHtml } from '../text/format.ts';

/**
 * Turns a provider failure (see `providerFailureOf`) into the message a user reads (HTML): what
 * happened and what to do next.
 */
export function describeProviderError(t: TranslateFunction, error: ProviderErrorJson, publicIp: string | undefined): string {
  const advice = adviceFor(t, error, publicIp);
  // Where the advice does not quote the provider, its own words follow (the marketplace's `msg`
  // of any `status:'error'`, whatever the HTTP status), so nothing the provider said is hidden.
  const quoted = ['not_found', 'rejected', 'validation'].includes(error.kind);
  const said = error.providerMessage?.trim();
  return said && !quoted ? `${advice}\n${t('provider-said', { service: t(`service-${error.service}`), message: said })}` : advice;
}

function adviceFor(t: TranslateFunction, error: ProviderErrorJson, publicIp: string | undefined): string {
  const service = t(`service-${error.service}`);
  const message = error.providerMessage ?? '-';
  switch (error.kind) {
    case 'credentials':
      return t('provider-error-credentials', { service });
    case 'ip_blocked':
      return publicIp ? t('provider-error-ip-blocked', { service, ip: publicIp }) : t('provider-error-ip-blocked-unknown', { service });
    case 'insufficient_balance':
      return t('provider-error-insufficient', { service });
    case 'not_found':
      return t('provider-error-not-found', { service, message });
    case 'rejected':
      return t('provider-error-rejected', { service, message });
    case 'validation':
      return [t('provider-error-validation', { service }), ...formatFieldErrors(error)].join('\n');
    case 'unknown_outcome':
      return t('provider-error-unknown', { service });
    case 'malformed':
      return t('provider-error-malformed', { service });
  }
}

function formatFieldErrors(error: ProviderErrorJson): string[] {
  const fields = error.fieldErrors ?? {};
  const lines = Object.entries(fields).map(([field, messages]) => `• ${escapeHtml(field)}: ${escapeHtml(messages.join(' '))}`);
  return lines.length > 0 ? lines : [`• ${escapeHtml(error.providerMessage ?? '-')}`];
}
