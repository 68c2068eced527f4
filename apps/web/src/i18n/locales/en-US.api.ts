import { apiMessageTexts } from '@kairos/contract';

const enUSApi = {
  /** The server's messages by code (the contract's catalog, so the English is the server's own). */
  apiMessages: apiMessageTexts(),
};

export default enUSApi;
