import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en';

// English is the only language today; every text goes through i18next so another can be added.
void i18next.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  resources: { en: { translation: en } },
  interpolation: { escapeValue: false },
  returnNull: false,
});

export default i18next;
