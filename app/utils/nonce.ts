// The CSP nonce of the page being rendered: server.ts makes one per request (the Content-Security-Policy
// header names it), entry.server.tsx provides it, and the root hands it to Remix's inline scripts. In the
// browser there is none (the scripts are already running).
import { createContext, useContext } from 'react';

export const NonceContext = createContext<string | undefined>(undefined);

export const useNonce = () => useContext(NonceContext);
