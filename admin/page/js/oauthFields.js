import { field, h } from './dom.js';

/**
 * The authentication part of an http/sse server form (seed §5.5): none, or OAuth with an optional
 * preregistered client (id, write-only secret), a client metadata URL and scopes. A saved client
 * secret is never shown: left empty it is sent as null (kept); "Remove the saved secret" leaves it out.
 */
export function createOAuthFields(saved) {
  const auth = saved?.mode === 'oauth' ? saved : null;
  const mode = h('select', { name: 'authMode' },
    h('option', { value: 'none', selected: !auth }, 'None (or a static header)'),
    h('option', { value: 'oauth', selected: Boolean(auth) }, 'OAuth 2.1 login'));
  const clientId = h('input', { name: 'clientId', value: auth?.clientId ?? '', autocomplete: 'off', spellcheck: 'false' });
  const clientSecret = h('input', { name: 'clientSecret', type: 'password', autocomplete: 'new-password', placeholder: auth?.clientSecretSet ? 'saved secret kept' : '' });
  const dropSecret = h('input', { type: 'checkbox', id: 'oauth-drop-secret' });
  const metadataUrl = h('input', { name: 'clientMetadataUrl', type: 'url', value: auth?.clientMetadataUrl ?? '', autocomplete: 'off', spellcheck: 'false' });
  const scope = h('input', { name: 'scope', value: auth?.scope ?? '', autocomplete: 'off', spellcheck: 'false' });
  const details = h('div', { class: 'oauth-fields' },
    field('Client id (optional: without it the gateway registers itself)', clientId),
    field('Client secret (optional, write-only)', clientSecret, auth?.clientSecretSet ? 'A secret is saved; leave this empty to keep it, or type a new one.' : 'Only for a confidential client; needs a client id.'),
    auth?.clientSecretSet ? h('div', { class: 'field check' }, dropSecret, h('label', { for: dropSecret.id }, 'Remove the saved secret')) : null,
    field('Client metadata document URL (optional)', metadataUrl),
    field('Scopes (space-separated, optional)', scope));
  const show = () => { details.hidden = mode.value !== 'oauth'; };
  mode.addEventListener('change', show);
  show();
  return {
    element: h('fieldset', { class: 'secrets' }, h('legend', {}, 'Authentication'), field('Mode', mode), details),
    /** The request's `auth`. */
    read() {
      if (mode.value !== 'oauth') return { mode: 'none' };
      const out = { mode: 'oauth' };
      if (clientId.value.trim()) out.clientId = clientId.value.trim();
      if (clientSecret.value) out.clientSecret = clientSecret.value;
      else if (auth?.clientSecretSet && !dropSecret.checked) out.clientSecret = null;
      if (metadataUrl.value.trim()) out.clientMetadataUrl = metadataUrl.value.trim();
      if (scope.value.trim()) out.scope = scope.value.trim();
      return out;
    },
  };
}
