export { detectVerificationCode, type VerificationCode } from './otp-detector';
export { OTP_PROVIDERS, type OtpProvider } from './otp-providers';
