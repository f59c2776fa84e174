// kube's KMS v2 plugin API (k8s.io/kms/apis/v2/api.proto): the service a KMS plugin serves on its
// unix socket. Field names and numbers are the wire contract.
export const KMS_V2_PROTO = `
syntax = "proto3";
package v2;

service KeyManagementService {
  rpc Status(StatusRequest) returns (StatusResponse) {}
  rpc Decrypt(DecryptRequest) returns (DecryptResponse) {}
  rpc Encrypt(EncryptRequest) returns (EncryptResponse) {}
}

message StatusRequest {}
message StatusResponse {
  string version = 1;
  string healthz = 2;
  string key_id = 3;
}
message DecryptRequest {
  bytes ciphertext = 1;
  string uid = 2;
  string key_id = 3;
  map<string, bytes> annotations = 4;
}
message DecryptResponse {
  bytes plaintext = 1;
}
message EncryptRequest {
  bytes plaintext = 1;
  string uid = 2;
}
message EncryptResponse {
  bytes ciphertext = 1;
  string key_id = 2;
  map<string, bytes> annotations = 3;
}
`;
