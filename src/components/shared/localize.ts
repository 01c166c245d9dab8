// The localization controller lives in src/internal (the viewers use it too); elements import it from here.
export * from '../../internal/localize.js';
