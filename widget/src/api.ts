/** The widget's transport is the SDK's (sdk/src/transport.ts): one implementation of the visitor protocol. */
export {
  CallError,
  ChatApi,
  type Frame,
  Live,
  type Profile,
  type Rating,
} from '@smartconnect/sdk/transport';
