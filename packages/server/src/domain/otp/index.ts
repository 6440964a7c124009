export { detectVerificationCode } from './otp-detector';
