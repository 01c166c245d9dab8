/**
 * The elements' localization: the controller from src/internal with the package's shipped
 * languages handed in (each language file loads the first time an element resolves to it).
 */
import { useLanguages } from '../../internal/localize.js';
import { languages } from '../../translations/languages.js';

useLanguages(languages);

export * from '../../internal/localize.js';
