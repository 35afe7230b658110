import { createContext, useContext } from "react";

/** The CSP nonce of this response, for Remix's inline scripts. In the browser it is empty (the attribute is hidden). */
const NonceContext = createContext("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
