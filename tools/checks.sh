#!/usr/bin/env bash
# The static checks of `npm test` side by side (typecheck, type-aware lint, format): one at a time
# they kept one of the two cores idle for a minute and a half. Every check runs to its end, so a
# run reports all three; the status is a failure if any failed.
set -u
npx tsc --noEmit & typecheck=$!
npx eslint . & lint=$!
npx prettier --check --log-level warn . & format=$!
status=0
wait "$typecheck" || { echo "typecheck failed (npm run typecheck)"; status=1; }
wait "$lint" || { echo "lint failed (npm run lint)"; status=1; }
wait "$format" || { echo "format check failed (npm run format:check; npm run format fixes it)"; status=1; }
exit "$status"
